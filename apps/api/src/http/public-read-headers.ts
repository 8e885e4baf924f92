/**
 * What every public read carries (docs/decisions.md#d9), from Koa (http/cors.ts) and from the fast
 * path (http/representation.ts) alike. A leaf: cors.ts derives its prefixes from the reads, and the
 * reads' answers are representations.
 */
export const PUBLIC_READ_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, X-Request-Id, Retry-After',
} as const;
