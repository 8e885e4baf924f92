/** The auth routes' part of the OpenAPI document (routes/docs/openapi.ts combines the groups'). */
import type { oas31 } from 'zod-openapi';
import { declarePaths } from '../../openapi/declare.js';
import { RETRY_AFTER, WWW_AUTHENTICATE } from '../../openapi/headers.js';
import { errorResponse, INTERNAL_ERROR, json, SERVICE_UNAVAILABLE, UNAUTHORIZED } from '../../openapi/responses.js';
import { LoginRequestSchema, LoginResponseSchema, MeResponseSchema, RefreshAcknowledgementSchema, UsageSchema } from './schema.js';

export const AUTH_PATHS = declarePaths({
  '/api/auth/login': {
    post: {
      operationId: 'login',
      summary: 'Exchange an email and password for a signed JWT',
      description:
        'Emails are trimmed and compared case-insensitively. More than 10 failures for one email, or more than 50 ' +
        'from one client address (counted only with TRUST_PROXY), within 15 minutes are throttled with 429. ' +
        'A gzip, deflate or br body that does not decompress is `Invalid JSON body`; another encoding is 415.',
      tags: ['auth'],
      requestBody: {
        required: true,
        description: 'A JSON object with a non-empty `email` and `password` (at most 16 KiB).',
        content: json(LoginRequestSchema, { login: { value: { email: 'demo@example.com', password: 'demo-password' } } }),
      },
      responses: {
        '200': { description: 'The signed token and its lifetime in seconds (86400).', content: json(LoginResponseSchema) },
        '400': errorResponse('Bad request', [
          ['Missing fields', '`email` or `password` is missing, not a string, or empty'],
          ['Invalid JSON body', 'the body is malformed JSON, or its Content-Encoding does not decompress'],
        ]),
        '401': errorResponse('Unauthorized', [['Invalid credentials', 'the email is unknown or the password is wrong']], {
          'WWW-Authenticate': WWW_AUTHENTICATE,
        }),
        '413': errorResponse('Payload too large', [['Payload too large', 'the body is over 16 KiB']]),
        '415': errorResponse('Unsupported media type', [
          ['Unsupported media type', 'the Content-Type is not JSON, or the Content-Encoding is not gzip, deflate or br'],
        ]),
        '429': errorResponse(
          'Throttled',
          [
            [
              'Too many login attempts',
              'too many failures for the email or the client address in 15 minutes, or a login of this client address is already being checked (LOGIN_MAX_IN_FLIGHT_PER_ADDRESS)',
            ],
          ],
          {
            'Retry-After': RETRY_AFTER,
          },
        ),
        '500': INTERNAL_ERROR,
        '503': SERVICE_UNAVAILABLE,
      },
    },
  },
  '/api/auth/me': {
    get: {
      operationId: 'me',
      summary: 'The user the bearer token or API key belongs to',
      description:
        'With an API key the answer also names the key (`credential`: its id, label, last four characters, creation and last use; never the key).',
      tags: ['auth'],
      security: [{ bearerAuth: [] }],
      responses: {
        '200': { description: 'The authenticated user.', content: json(MeResponseSchema) },
        '401': UNAUTHORIZED,
        '500': INTERNAL_ERROR,
        '503': SERVICE_UNAVAILABLE,
      },
    },
  },
  '/api/auth/usage': {
    get: {
      operationId: 'usage',
      summary: 'The caller’s budget of stats misses and what is left of it',
      description:
        'With an API key, the key’s own budget (API_KEY_STATS_MISS_BUDGET, default 600 per 10 minutes); without one, the ' +
        'client address’s (STATS_MISS_BUDGET, default 60). Spends nothing and shows no secret: a key is named by its id, label ' +
        'and last four characters.',
      tags: ['auth'],
      responses: {
        '200': { description: 'Whose budget it is, and its state.', content: json(UsageSchema) },
        '500': INTERNAL_ERROR,
        '503': SERVICE_UNAVAILABLE,
      },
    },
  },
  '/api/admin/refresh': {
    post: {
      operationId: 'adminRefresh',
      summary: 'Refresh the shared snapshots now (role admin)',
      tags: ['auth'],
      // The role it takes (OpenAPI 3.1 lets a non-OAuth requirement list roles): what sets it apart from /api/auth/me.
      security: [{ bearerAuth: ['admin'] }],
      responses: {
        '202': {
          description:
            'A run of each shared snapshot’s refresh was requested, at most one per refresh job every 10 s: the jobs asked for ' +
            'within that time are listed as coalesced (this ask joined their run).',
          content: json(RefreshAcknowledgementSchema),
        },
        '401': UNAUTHORIZED,
        '403': errorResponse('Forbidden', [['Forbidden', 'the user does not have the role admin']]),
        '429': errorResponse(
          'Throttled',
          [
            [
              'a refresh of every snapshot was asked for less than 10 s ago; its runs are on their way',
              'every refresh job was asked for within the last 10 s: nothing new was started',
            ],
          ],
          { 'Retry-After': RETRY_AFTER },
        ),
        '500': INTERNAL_ERROR,
        '503': SERVICE_UNAVAILABLE,
      },
    },
  },
});

export const AUTH_SECURITY_SCHEMES: Record<string, oas31.SecuritySchemeObject> = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'The token from POST /api/auth/login, as `Authorization: Bearer <token>`. Verified as RFC8725 (JSON Web Token Best Current ' +
      'Practices) asks: the algorithm is pinned to HS256 (`none` and every other `alg` are refused), the key is at least ' +
      '32 bytes, the issuer is checked, every claim is required, and a token that claims more than a 24 h life is refused.',
  },
};
