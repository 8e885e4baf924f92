/** GET /api/export: the stored states of a range, streamed for backtests (market/export-service.ts); a JWT or an API key. */
import Router from '@koa/router';
import { authenticatedUser, bearerAuth } from '../../auth/bearer.js';
import type { ApiDeps } from '../../deps.js';
import { EXPORT_CONTENT_TYPES, ExportService, parseExportQuery } from '../../market/export-service.js';

export function exportRoutes(deps: Pick<ApiDeps, 'auth' | 'redis' | 'config'>, router = new Router()): Router {
  const service = new ExportService(deps.redis, deps.config.historyDays * 24 * 3_600_000);
  router.get('/api/export', bearerAuth(deps.auth), async (ctx) => {
    const query = parseExportQuery(ctx.query);
    const body = await service.open(authenticatedUser(ctx).id, query);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="market-signals-export.${query.format}"`);
    ctx.type = EXPORT_CONTENT_TYPES[query.format];
    ctx.body = body;
  });
  return router;
}
