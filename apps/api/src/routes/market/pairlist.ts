/** GET /api/market/pairlist: a ranked list as Freqtrade's RemotePairList loads it (market/pairlist.ts). */
import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { parsePairlistQuery, PairlistService } from '../../market/pairlist.js';

export function pairlistRoutes(deps: Pick<ApiDeps, 'snapshots' | 'config'>, router = new Router()): Router {
  const service = new PairlistService(deps.snapshots, deps.config.pairlistSymbols);
  router.get('/api/market/pairlist', async (ctx) => {
    const list = await service.pairlist(parsePairlistQuery(ctx.query, deps.config.trendingWindows));
    // Cached by clients until the next refresh: the list cannot change before it.
    ctx.set('Cache-Control', `public, max-age=${list.refresh_period}`);
    ctx.body = list;
  });
  return router;
}
