/**
 * What every route group's OpenAPI declaration shares: the error body, an error status written
 * from its messages, and the statuses most routes answer alike.
 */
import { z } from 'zod';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import type { ErrorCase } from '../market/read-spec.js';
import { CACHE_CONTROL, ETAG, RETRY_AFTER, WWW_AUTHENTICATE } from './headers.js';

export type { ErrorCase };
export type Response = ZodOpenApiResponseObject;
export type Header = NonNullable<Extract<Response['headers'], Record<string, unknown>>>[string];

/** Every error body. */
export const ErrorSchema = z
  .object({ error: z.string().meta({ description: 'Error message.', examples: ['Not found'] }) })
  .meta({ id: 'Error', description: 'Every error body.' });

export const json = (schema: z.ZodType, examples?: Record<string, { summary?: string; value: unknown }>) => ({
  'application/json': examples ? { schema, examples } : { schema },
});

/** How an error status lists its messages: each with the condition it is answered on. */
export const listCases = (cases: readonly ErrorCase[]) => cases.map(([message, condition]) => `"${message}" when ${condition}`).join('; ');

/** Each message as an example body, its condition as the summary. */
export const caseExamples = (cases: readonly ErrorCase[]) =>
  Object.fromEntries(cases.map(([message, condition]) => [message, { summary: condition, value: { error: message } }]));

/** One error status: the description names every message; each message is also an example body. */
export function errorResponse(summary: string, cases: readonly ErrorCase[], headers?: Record<string, Header>): Response {
  return {
    description: `${summary}: ${listCases(cases)}.`,
    ...(headers ? { headers } : {}),
    content: json(ErrorSchema, caseExamples(cases)),
  };
}

export const INTERNAL_ERROR = errorResponse('Unexpected failure', [
  ['Internal server error', 'anything unexpected happens (never a stack trace)'],
]);
export const REDIS_DOWN: ErrorCase = ['Service unavailable', 'Redis is unreachable (answered within 1 second)'];
export const SERVICE_UNAVAILABLE = errorResponse('Temporarily unavailable', [REDIS_DOWN], { 'Retry-After': RETRY_AFTER });
export const NOT_MODIFIED: Response = {
  description: 'Not Modified: If-None-Match matched the current ETag; no body.',
  headers: { ETag: ETAG, 'Cache-Control': CACHE_CONTROL },
};
export const UNAUTHORIZED = errorResponse(
  'Unauthorized',
  [
    ['Missing token', 'no `Authorization: Bearer <token>` header is sent'],
    [
      'Invalid token',
      'the token is malformed, has a bad signature or algorithm, claims more than a 24 h life, was issued before a password change, or its user no longer exists',
    ],
    ['Token expired', 'the token is past its `exp`'],
  ],
  { 'WWW-Authenticate': WWW_AUTHENTICATE },
);
