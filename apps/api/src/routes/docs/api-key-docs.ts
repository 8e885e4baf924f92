/**
 * API keys in the OpenAPI document (issue 21). The key check runs before routing on every route
 * but /metrics (auth/api-key-auth.ts), so what it adds to each operation is added here, to the
 * generated document, rather than written into every operation by hand: the optional key
 * security, the 401 `Invalid API key`, the 400s for a key in the URL or two different keys, and
 * the 503 when Redis cannot be asked about a key.
 */
import type { oas31 } from 'zod-openapi';
import { INVALID_API_KEY, KEY_IN_URL, OWN_CREDENTIAL, TWO_KEYS } from '../../auth/api-key-auth.js';
import { OPERATION_METHODS, RETRY_AFTER, WWW_AUTHENTICATE } from './openapi-headers.js';

/** The schemes a key may use; `bearerAuth` (the JWT) is declared with the document. */
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

const ERROR_REF = { $ref: '#/components/schemas/Error' };

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

/** Adds `cases` to the response for `status`, or creates it: its description names every message, each is an example. */
function addCases(
  operation: oas31.OperationObject,
  status: keyof typeof KEY_CASES,
  summary: string,
  headers: Record<string, oas31.HeaderObject>,
): void {
  const responses = (operation.responses ??= {});
  const existing = responses[status] as oas31.ResponseObject | undefined;
  const response: oas31.ResponseObject = existing ?? { description: summary, content: { 'application/json': { schema: ERROR_REF } } };
  const media = ((response.content ??= {})['application/json'] ??= { schema: ERROR_REF });
  const examples = (media.examples ??= {});
  const cases = KEY_CASES[status].filter(([message]) => !(message in examples));
  if (cases.length === 0) return;
  // A route with its own error shape (POST /mcp's JSON-RPC errors) answers the key check's errors as `{ "error" }`.
  if (media.schema && (media.schema as oas31.ReferenceObject).$ref !== ERROR_REF.$ref) media.schema = { anyOf: [media.schema, ERROR_REF] };
  const listed = cases.map(([message, condition]) => `"${message}" when ${condition}`).join('; ');
  response.description = existing ? `${response.description.replace(/\.$/, '')}; ${listed}.` : `${summary}: ${listed}.`;
  for (const [message, condition] of cases) examples[message] = { summary: condition, value: { error: message } };
  if (Object.keys(headers).length > 0) response.headers = { ...headers, ...response.headers };
  responses[status] = response;
}

/** `generated` with the key check described on every operation it applies to (mutated and returned). */
export function documentApiKeys<Document extends object>(generated: Document): Document {
  // zod-openapi's own output type and its exported oas31 types differ in details only.
  const document = generated as oas31.OpenAPIObject;
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (OWN_CREDENTIAL.has(path)) continue;
    for (const method of OPERATION_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      // A key acts as its user: it needs the roles the operation's own requirement names (admin).
      const roles = Object.values(operation.security?.[0] ?? {})[0] ?? [];
      const keySecurity: oas31.SecurityRequirementObject[] = [{ apiKeyHeader: roles }, { apiKeyBearer: roles }];
      // Protected routes: a JWT or a key. Public ones: nothing, or a key (`{}` = anonymous allowed).
      operation.security = operation.security?.length ? [...operation.security, ...keySecurity] : [{}, ...keySecurity];
      // The stats route's budget: per key for a keyed client.
      if ((operation.responses?.['429'] as oas31.ResponseObject | undefined)?.headers?.RateLimit) {
        operation.description =
          `${operation.description ?? ''} With an API key the key's own budget is charged instead of the address's: API_KEY_STATS_MISS_BUDGET, default 600 per 10 minutes (GET /api/auth/usage shows it).`.trim();
      }
      addCases(operation, '400', 'Bad request', {});
      addCases(operation, '401', 'Unauthorized', { 'WWW-Authenticate': WWW_AUTHENTICATE });
      addCases(operation, '503', 'Temporarily unavailable', { 'Retry-After': RETRY_AFTER });
    }
  }
  const components = (document.components ??= {});
  components.securitySchemes = { ...components.securitySchemes, ...API_KEY_SECURITY_SCHEMES };
  return generated;
}
