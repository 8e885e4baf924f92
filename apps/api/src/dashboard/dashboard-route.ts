/**
 * GET /: the market dashboard (docs/decisions.md#d16), reading the public routes as any client does.
 * Its assets' URLs are immutable; the page is revalidated on every visit, so a deploy is seen at once.
 */
import Router from '@koa/router';
import { pageCsp } from '../http/page-csp.js';
import { sendRepresentation, type EncodingNegotiator } from '../http/representation.js';
import type { TrendingWindow } from '../../../../shared/trending-windows.js';
import { loadDashboardAssets, type DashboardAssets } from './dashboard-assets.js';

const ASSET_MAX_AGE_SECONDS = 365 * 24 * 3600;

/** No inline script or style (uPlot sizes its elements through the CSSOM, which CSP does not govern). */
const DASHBOARD_CSP = pageCsp("'self'");

export function dashboardRoutes(encodings: EncodingNegotiator, windows: readonly TrendingWindow[], router = new Router()): Router {
  // Read on first request: a process that never serves the page never holds its files.
  let assets: DashboardAssets | undefined;
  const load = () => (assets ??= loadDashboardAssets(windows));

  router.get('/', (ctx) => {
    ctx.set('Content-Security-Policy', DASHBOARD_CSP);
    ctx.set('Referrer-Policy', 'no-referrer');
    // ETag/304, Cache-Control and br/gzip as for the market reads (docs/decisions.md#d9), with the file's own type.
    sendRepresentation(ctx, load().page, 0, encodings, 'text/html; charset=utf-8');
  });

  router.get('/assets/:version/:file', (ctx) => {
    const asset = load().asset(ctx.params.version ?? '', ctx.params.file ?? '');
    if (!asset) return; // an unknown file or another build's version: 404 from the error contract
    sendRepresentation(ctx, asset.representation, ASSET_MAX_AGE_SECONDS, encodings, asset.contentType);
    // The URL names this content for good: browsers need not even revalidate it on reload.
    ctx.set('Cache-Control', `public, max-age=${ASSET_MAX_AGE_SECONDS}, immutable`);
  });

  return router;
}
