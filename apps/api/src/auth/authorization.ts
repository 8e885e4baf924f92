/**
 * The one reader of the `Authorization` header: a JWT (bearer.ts), an API key sent as a Bearer
 * value (api-key-auth.ts) and the METRICS_TOKEN (routes/health/metrics-auth.ts) all arrive as
 * `Authorization: Bearer <credential>`, the scheme in any case (RFC 7235), so all three read it
 * the same way and a header one of them takes cannot mean something else to another.
 */

const BEARER = /^Bearer(?:[ \t]+(.*))?$/i;

/** The credential of a Bearer header, trimmed; undefined for no header, another scheme or an empty value. */
export function bearerCredential(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const credential = BEARER.exec(header)?.[1]?.trim();
  return credential ? credential : undefined;
}

/** A Bearer header whose credential starts with `ms_` (an API key's prefix): the fast path's first look, before any parsing. */
const BEARER_API_KEY = /^Bearer[ \t]+ms_/i;

export function isBearerApiKey(header: string): boolean {
  return BEARER_API_KEY.test(header);
}
