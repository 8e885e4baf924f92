/** GET /api/market/{sentiment,tokens}/:token/history: time series from the worker's history (docs/decisions.md#d11). */
import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { sendRepresentation } from '../../http/representation.js';
import { parseHistoryQuery, parseTokenParam } from './schema.js';

export function historyRoutes({ history }: ApiDeps, router = new Router()): Router {
  router.get('/api/market/sentiment/:token/history', async (ctx) => {
    const token = parseTokenParam(ctx.params.token);
    const answer = await history.sentiment(token, parseHistoryQuery(ctx.query));
    sendRepresentation(ctx, answer.representation, answer.maxAgeSeconds);
  });

  router.get('/api/market/tokens/:token/history', async (ctx) => {
    const token = parseTokenParam(ctx.params.token);
    const answer = await history.token(token, parseHistoryQuery(ctx.query));
    sendRepresentation(ctx, answer.representation, answer.maxAgeSeconds);
  });

  return router;
}
