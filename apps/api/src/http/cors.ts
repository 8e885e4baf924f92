import type { Middleware } from 'koa';
import { BadRequestError } from '../../../../shared/errors.js';
import { PUBLIC_READ_HEADERS } from './public-read-headers.js';

/** Market reads are public data (paths under `prefixes`, the reads table's PUBLIC_PREFIXES): any origin may read them, and see their ETag and request id (docs/decisions.md#d9). */
export function publicCors(prefixes: readonly string[]): Middleware {
  return async (ctx, next) => {
    // An absolute-form target without a path (`GET http:// HTTP/1.1`, which Node accepts) has
    // no ctx.path: no route can match it, so it is a bad request, not a crash here.
    if (typeof ctx.path !== 'string') throw new BadRequestError('Bad request');
    if (prefixes.some((prefix) => ctx.path.startsWith(prefix))) {
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
