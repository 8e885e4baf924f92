/**
 * GET /metrics behind METRICS_TOKEN: a scrape costs Redis round trips and tells a stranger about
 * queue depths and traffic, so once a token is configured only `Authorization: Bearer <token>`
 * (what Prometheus sends with `authorization.credentials`) is answered. Both sides are hashed
 * before a constant-time comparison, so neither the token's bytes nor its length leak by timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { AuthError } from '../../../../../shared/errors.js';
import { bearerCredential } from '../../auth/authorization.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** No token configured: /metrics is public. */
export function metricsAuth(token: string | undefined): Middleware {
  if (token === undefined) return (_ctx, next) => next();
  const expected = digest(token);
  return async (ctx, next) => {
    const presented = bearerCredential(ctx.get('Authorization'));
    if (presented === undefined) throw new AuthError('Missing token');
    if (!timingSafeEqual(digest(presented), expected)) throw new AuthError('Invalid metrics token');
    await next();
  };
}
