/**
 * The one reader of `Authorization: Bearer` (a JWT, an API key, the METRICS_TOKEN), so a header one
 * of them takes cannot mean something else to another.
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
