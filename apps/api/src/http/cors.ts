import type { Middleware } from 'koa';
import { BadRequestError } from '../../../../shared/errors.js';
import { MARKET_READS, READ_NAMES } from '../market/reads.js';

/** A read path's directory: up to the `/` before its last static segment (`/api/market/stats/:username` -> `/api/market/stats/`). */
function directoryOf(path: string): string {
  const firstParam = path.indexOf(':');
  return path.slice(0, path.lastIndexOf('/', firstParam === -1 ? path.length : firstParam) + 1);
}

/**
 * The public reads' paths start so (today `/api/market/`, which the stream shares, and `/sentiment/`):
 * the reads' directories, each under no other. The OpenAPI document declares the CORS header on
 * each of their answers from this list.
 */
export const PUBLIC_PREFIXES: readonly string[] = [...new Set(READ_NAMES.map((name) => directoryOf(MARKET_READS[name].path)))]
  .sort((a, b) => a.length - b.length)
  .filter((prefix, index, all) => !all.slice(0, index).some((shorter) => prefix.startsWith(shorter)));

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
