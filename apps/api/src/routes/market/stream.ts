/** GET /api/market/stream: server-sent events, one per refresh of each kind (docs/decisions.md#d11). */
import Router from '@koa/router';
import { UnavailableError } from '../../../../../shared/errors.js';
import type { ApiDeps } from '../../deps.js';
import { parseLastEventId, parseTopics } from './schema.js';

export function streamRoutes({ stream, config }: ApiDeps, router = new Router()): Router {
  router.get('/api/market/stream', (ctx) => {
    const topics = parseTopics(ctx.query.topics, config.trendingWindows);
    const lastEventMs = parseLastEventId(ctx.get('Last-Event-ID') || undefined);
    const refusal = stream.refusal(ctx.ip);
    if (refusal === 'full') throw new UnavailableError('Too many stream clients', 5);
    if (refusal === 'address-full') throw new UnavailableError('Too many stream clients from this address', 5);
    if (refusal === 'closing') throw new UnavailableError('Service unavailable', 1);
    // The hub owns the response from here; Koa only logs it.
    ctx.status = 200;
    ctx.respond = false;
    void stream.add(ctx.req, ctx.res, topics, lastEventMs, ctx.ip);
  });
  return router;
}
