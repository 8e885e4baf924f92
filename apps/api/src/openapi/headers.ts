/**
 * The response headers the OpenAPI document declares, each bounded by what the code can send
 * (the linters of .spectral.yaml ask every string for a length and every integer for a range;
 * these are true bounds, and test/support/openapi-response.ts checks every response against them).
 */
import type { oas31 } from 'zod-openapi';

type Header = oas31.HeaderObject;

/**
 * Seconds, from shared/errors.ts (at least 1). The longest wait any route names is the login
 * throttle's 15-minute window (auth/throttle.ts); the stats budget's is 10 minutes, a 503's 30 s.
 */
export const RETRY_AFTER: Header = {
  description: 'Seconds to wait before retrying (1 to 900).',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 900 },
};

export const WWW_AUTHENTICATE: Header = { description: 'Always `Bearer` on a 401.', schema: { type: 'string', const: 'Bearer' } };

/** http/representation.ts: the SHA-1 of the body in base64url (27 characters), quoted. */
export const ETAG: Header = {
  description: 'Strong entity tag of the body; send it back in If-None-Match.',
  schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]{27}"$', maxLength: 29 },
};

/** http/representation.ts: whole seconds until the cached entry expires. */
export const CACHE_CONTROL: Header = {
  description: '`public, max-age=<seconds until the cached entry expires>`.',
  schema: { type: 'string', pattern: '^public, max-age=\\d{1,10}$', maxLength: 26 },
};

/** http/cors.ts sets it on every answer under /api/market/ and /sentiment/, errors included. */
export const ALLOW_ORIGIN: Header = { description: 'Always `*`.', schema: { type: 'string', const: '*' } };

/**
 * The connection-limit 503 (server.ts) is written before any request is read, so it carries no
 * CORS header; every other 503 of a public read does.
 */
export const ALLOW_ORIGIN_503: Header = {
  ...ALLOW_ORIGIN,
  description: 'Always `*`; absent only on the 503 sent when the process is at MAX_CONNECTIONS.',
  required: false,
};

/** market/miss-budget.ts: counts fit the budget's bounds (at most 1,000,000, shared/config.ts). */
export const RATE_LIMIT: Record<string, Header> = {
  RateLimit: {
    description: 'IETF draft: `"stats-misses";r=<remaining>;t=<seconds to reset>`. Sent when the request spent a lookup from the budget.',
    required: false,
    schema: { type: 'string', pattern: '^"stats-misses";r=\\d{1,7};t=\\d{1,7}$', maxLength: 34 },
  },
  'RateLimit-Policy': {
    description: 'IETF draft: `"stats-misses";q=<quota>;w=<window seconds>`. Sent with RateLimit.',
    required: false,
    schema: { type: 'string', pattern: '^"stats-misses";q=\\d{1,7};w=\\d{1,7}$', maxLength: 34 },
  },
};

/** On every server-sent event stream (the market stream, the alerts feed). */
export const X_ACCEL_BUFFERING: Header = {
  description: 'Always `no`: a proxy must pass each event on at once.',
  schema: { type: 'string', const: 'no' },
};
