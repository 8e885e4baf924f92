/** GET /api/market/*: reads of the cached snapshots and per-username stats. */
import Router from '@koa/router';
import { NotFoundError } from '../../../../../shared/errors.js';
import { apiKeyOf } from '../../auth/api-key-auth.js';
import type { ApiDeps } from '../../deps.js';
import { sendRepresentation } from '../../http/representation.js';
import { secondsLeft } from '../../market/snapshot-cache.js';
import { parseInstant, parseNewsQuery, parseTokenParam, parseUsernameParam } from './schema.js';

export function marketRoutes({ snapshots, stats, missBudget, history }: ApiDeps, router = new Router()): Router {
  for (const name of ['trending', 'trending-cas'] as const) {
    router.get(`/api/market/${name}`, async (ctx) => {
      // ?at=<ISO>: the snapshot that was current then, from history (issue 12).
      const at = parseInstant(ctx.query.at, 'at');
      if (at !== undefined) {
        const past = await history.snapshotAt(name, at);
        sendRepresentation(ctx, past.representation, past.maxAgeSeconds);
        return;
      }
      const snapshot = await snapshots.get(name);
      sendRepresentation(ctx, snapshot.view.representation, secondsLeft(snapshot.expiresAt));
    });
  }

  router.get('/api/market/news', async (ctx) => {
    const { page, limit } = parseNewsQuery(ctx.query);
    const snapshot = await snapshots.get('news');
    sendRepresentation(ctx, snapshot.view.pages.page(page, limit), secondsLeft(snapshot.expiresAt));
  });

  router.get('/api/market/stats/:username', async (ctx) => {
    // A miss asks the upstream: it is charged to the client's API key, else its address (ctx.ip honours TRUST_PROXY),
    // and its answer (200, 404 or 503) tells the client what is left of the budget.
    const answer = await stats.get(parseUsernameParam(ctx.params.username), async () => {
      ctx.set(await missBudget.charge(ctx.ip, apiKeyOf(ctx)?.key.id));
    });
    sendRepresentation(ctx, answer.representation, answer.maxAgeSeconds);
  });

  // D1: the spec's literal path and ours answer byte-identically.
  router.get(['/api/market/sentiment/:token', '/sentiment/:token'], async (ctx) => {
    const token = parseTokenParam(ctx.params.token);
    const snapshot = await snapshots.get('sentiment');
    const record = snapshot.view.byToken.get(token);
    if (!record) throw new NotFoundError('Token not found in index');
    sendRepresentation(ctx, record, secondsLeft(snapshot.expiresAt));
  });

  return router;
}
