/** GET /openapi.json and GET /docs in the OpenAPI document. */
import { z } from 'zod';
import { declarePaths } from '../../openapi/declare.js';
import { ETAG } from '../../openapi/headers.js';
import { INTERNAL_ERROR, json, NOT_MODIFIED } from '../../openapi/responses.js';

export const DOCS_PATHS = declarePaths({
  '/openapi.json': {
    get: {
      operationId: 'openApiDocument',
      summary: 'This OpenAPI 3.1 document',
      tags: ['operations'],
      responses: {
        '200': {
          description: 'The OpenAPI document, with ETag and Cache-Control (max-age 3600).',
          headers: { ETag: ETAG },
          content: json(
            z.looseObject({}).meta({
              description: 'An OpenAPI 3.1.0 document.',
              override: ({ jsonSchema }) => {
                delete jsonSchema.properties;
                delete jsonSchema.additionalProperties;
              },
            }),
          ),
        },
        '304': NOT_MODIFIED,
        '500': INTERNAL_ERROR,
      },
    },
  },
  '/docs': {
    get: {
      operationId: 'docs',
      summary: 'Human-readable documentation of this API',
      tags: ['operations'],
      responses: {
        '200': {
          description: 'An interactive reference page rendered from this document (Scalar, served by the API itself).',
          content: { 'text/html; charset=utf-8': { schema: z.string() } },
        },
        '500': INTERNAL_ERROR,
      },
    },
  },
});
