/**
 * declarePaths adds to each operation what the middleware in front of the routers does, from the
 * tables it reads: the API-key check on every path but OWN_CREDENTIAL (its security, 400s, 401 and
 * 503), and CORS on every answer under PUBLIC_PREFIXES.
 */
import { z } from 'zod';
import type { oas31, ZodOpenApiOperationObject, ZodOpenApiPathItemObject } from 'zod-openapi';
import { INVALID_API_KEY, KEY_IN_URL, OWN_CREDENTIAL, TWO_KEYS } from '../auth/api-key-auth.js';
import { PUBLIC_PREFIXES } from '../market/reads.js';
import { ALLOW_ORIGIN, ALLOW_ORIGIN_503, RETRY_AFTER, WWW_AUTHENTICATE } from './headers.js';
import { caseExamples, ErrorSchema, listCases, type Header, type Response } from './responses.js';

type Operation = ZodOpenApiOperationObject;
type Paths = Record<string, Pick<ZodOpenApiPathItemObject, 'get' | 'put' | 'post' | 'delete' | 'patch'>>;

/** The schemes a key may use; `bearerAuth` (the JWT) is the auth routes'. */
export const API_KEY_SECURITY_SCHEMES: Record<string, oas31.SecuritySchemeObject> = {
  apiKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description:
      'An API key (`ms_live_…`, made with `users key create`), as `X-Api-Key: <key>`. It acts as its user, and has its own budget of ' +
      'stats misses. Never in the URL: a key in the query string is refused with 400.',
  },
  apiKeyBearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API key (ms_live_…)',
    description:
      'The same API key as `Authorization: Bearer <key>`: a Bearer value that starts with `ms_` is read as a key, anything else as a JWT.',
  },
};

const KEY_CASES = {
  '400': [
    [KEY_IN_URL, 'the query string carries an API key (a value starting with `ms_live_`, or a parameter named like api_key)'],
    [TWO_KEYS, 'X-Api-Key and Authorization: Bearer carry two different API keys'],
  ],
  '401': [
    [
      INVALID_API_KEY,
      'an API key is presented (X-Api-Key, or a Bearer value starting with `ms_`) that is malformed, unknown or revoked, or whose user was removed',
    ],
  ],
  '503': [['Service unavailable', 'an API key is presented and Redis is unreachable (the key cannot be checked)']],
} as const;

/** `paths` with each operation as the middleware in front of the routers answers it. */
export function declarePaths(paths: Paths): Paths {
  const declare = (path: string, operation: Operation) => {
    const keyed = OWN_CREDENTIAL.has(path) ? operation : withApiKeys(operation);
    return PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix)) ? withCors(keyed) : keyed;
  };
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, operation]: [string, Operation]) => [method, declare(path, operation)])),
    ]),
  );
}

function withApiKeys(operation: Operation): Operation {
  // A key acts as its user: it needs the roles the operation's own requirement names (admin).
  const roles = Object.values(operation.security?.[0] ?? {})[0] ?? [];
  const keySecurity: oas31.SecurityRequirementObject[] = [{ apiKeyHeader: roles }, { apiKeyBearer: roles }];
  const responses = { ...operation.responses };
  addCases(responses, '400', 'Bad request', {});
  addCases(responses, '401', 'Unauthorized', { 'WWW-Authenticate': WWW_AUTHENTICATE });
  addCases(responses, '503', 'Temporarily unavailable', { 'Retry-After': RETRY_AFTER });
  return {
    ...operation,
    responses,
    // Protected routes: a JWT or a key. Public ones: nothing, or a key (`{}` = anonymous allowed).
    security: operation.security?.length ? [...operation.security, ...keySecurity] : [{}, ...keySecurity],
  };
}

/** Adds the key check's cases to the response for `status`, or creates it: its description names every message, each is an example. */
function addCases(
  responses: Operation['responses'],
  status: keyof typeof KEY_CASES,
  summary: string,
  headers: Record<string, Header>,
): void {
  const existing = responses[status] as Response | undefined;
  const media = existing?.content?.['application/json'] ?? { schema: ErrorSchema };
  const cases = KEY_CASES[status].filter(([message]) => !(message in (media.examples ?? {})));
  if (cases.length === 0) return;
  // A route with its own error shape (POST /mcp's JSON-RPC errors) answers the key check's errors as `{ "error" }`.
  const schema = media.schema === ErrorSchema || !(media.schema instanceof z.ZodType) ? media.schema : z.union([media.schema, ErrorSchema]);
  responses[status] = {
    ...existing,
    description: existing?.description
      ? `${existing.description.replace(/\.$/, '')}; ${listCases(cases)}.`
      : `${summary}: ${listCases(cases)}.`,
    content: { ...existing?.content, 'application/json': { ...media, schema, examples: { ...media.examples, ...caseExamples(cases) } } },
    ...(Object.keys(headers).length > 0 ? { headers: { ...headers, ...existing?.headers } } : {}),
  };
}

/** Every answer of a public read carries the CORS header; the connection-limit 503 may not (headers.ts). */
function withCors(operation: Operation): Operation {
  const responses = Object.entries(operation.responses).map(([status, response]: [string, Response]) => {
    const origin = status === '503' ? ALLOW_ORIGIN_503 : ALLOW_ORIGIN;
    return [status, { ...response, headers: { 'Access-Control-Allow-Origin': origin, ...response.headers } }];
  });
  return { ...operation, responses: Object.fromEntries(responses) as Operation['responses'] };
}
