import type { Middleware } from 'koa';
import { BadRequestError } from '../../../../shared/errors.js';

/** The public reads' paths start so; the OpenAPI document declares the CORS header on each of their answers from this list. */
export const PUBLIC_PREFIXES = ['/api/market/', '/sentiment/'] as const;

/** What every public read carries (the fast path sends the same). */
export const PUBLIC_READ_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, X-Request-Id, Retry-After',
} as const;

/** Market reads are public data: any origin may read them, and see their ETag and request id (docs/decisions.md#d9). */
export function publicCors(): Middleware {
  return async (ctx, next) => {
    // An absolute-form target without a path (`GET http:// HTTP/1.1`, which Node accepts) has
    // no ctx.path: no route can match it, so it is a bad request, not a crash here.
    if (typeof ctx.path !== 'string') throw new BadRequestError('Bad request');
    if (PUBLIC_PREFIXES.some((prefix) => ctx.path.startsWith(prefix))) {
      ctx.set(PUBLIC_READ_HEADERS);
      if (ctx.method === 'OPTIONS') {
        ctx.set('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
        ctx.set('Access-Control-Allow-Headers', 'If-None-Match, X-Request-Id');
        ctx.set('Access-Control-Max-Age', '86400');
      }
    }
    await next();
  };
}
