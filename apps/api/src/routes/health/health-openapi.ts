/** The operations routes' part of the OpenAPI document: liveness, readiness and metrics. */
import { z } from 'zod';
import type { oas31 } from 'zod-openapi';
import { declarePaths } from '../../openapi/declare.js';
import { RETRY_AFTER, WWW_AUTHENTICATE } from '../../openapi/headers.js';
import { errorResponse, INTERNAL_ERROR, json, REDIS_DOWN } from '../../openapi/responses.js';
import { USER_STORE_EMPTY } from './health.js';

const operationStatus = (description: string, status: string) =>
  z.object({ status: z.literal(status).meta({ description: `Always "${status}".` }) }).meta({ description });

export const HEALTH_PATHS = declarePaths({
  '/healthz': {
    get: {
      operationId: 'healthz',
      summary: 'Liveness',
      tags: ['operations'],
      responses: {
        '200': { description: 'The process is alive.', content: json(operationStatus('Liveness.', 'ok')) },
        '500': INTERNAL_ERROR,
      },
    },
  },
  '/readyz': {
    get: {
      operationId: 'readyz',
      summary: 'Readiness: Redis answers and the shared snapshots exist',
      tags: ['operations'],
      responses: {
        '200': { description: 'Ready to serve.', content: json(operationStatus('Readiness.', 'ready')) },
        '503': errorResponse(
          'Not ready',
          [
            ['Not ready: no snapshot yet for <names>', 'a shared snapshot does not exist yet'],
            [USER_STORE_EMPTY, 'NODE_ENV is production and the user store is empty (users come back only from a backup)'],
            REDIS_DOWN,
          ],
          { 'Retry-After': RETRY_AFTER },
        ),
        '500': INTERNAL_ERROR,
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      description:
        'Public unless METRICS_TOKEN is set; then only `Authorization: Bearer <METRICS_TOKEN>` is answered (API keys do not apply here).',
      tags: ['operations'],
      security: [{}, { metricsToken: [] }],
      responses: {
        '200': {
          description: 'Metrics in the Prometheus text exposition format.',
          content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: z.string() } },
        },
        '401': errorResponse(
          'Unauthorized',
          [
            ['Missing token', 'METRICS_TOKEN is set and no `Authorization: Bearer` header is sent'],
            ['Invalid metrics token', 'METRICS_TOKEN is set and the Bearer value is not it'],
          ],
          { 'WWW-Authenticate': WWW_AUTHENTICATE },
        ),
        '500': INTERNAL_ERROR,
      },
    },
  },
});

export const HEALTH_SECURITY_SCHEMES: Record<string, oas31.SecuritySchemeObject> = {
  metricsToken: { type: 'http', scheme: 'bearer', description: 'GET /metrics only: METRICS_TOKEN, when it is set.' },
};
