/**
 * The API's request listener: the fast path for cached reads, then the Koa application for
 * everything else. Nothing here listens (tests run it on port 0).
 */
import { METHODS, type RequestListener } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import { apiKeyAuth } from './auth/api-key-auth.js';
import { dashboardRoutes } from './dashboard/dashboard-route.js';
import type { ApiDeps } from './deps.js';
import { publicCors } from './http/cors.js';
import { PUBLIC_PREFIXES } from './market/reads.js';
import { errorHandler } from './http/error-handler.js';
import { fastReads } from './routes/market/fast-reads.js';
import { pacedBodies } from './http/paced-body.js';
import { requestContext } from './http/request-context.js';
import { mcpRoutes } from './mcp/mcp-route.js';
import { alertRoutes } from './routes/alerts/alerts.js';
import { authRoutes } from './routes/auth/auth.js';
import { docsRoutes } from './routes/docs/docs.js';
import { healthRoutes } from './routes/health/health.js';
import { marketRoutes } from './routes/market/market.js';
import { streamRoutes } from './routes/market/stream.js';

/**
 * Every route of the API, on one router: each router adds its own dispatch to every request.
 * Every method Node's parser accepts counts as implemented, so allowedMethods() answers an
 * unusual one (TRACE, PROPFIND, QUERY...) with 405 + Allow on a known path and leaves the
 * 404 elsewhere, instead of its default 501 for methods outside its short list. The OpenAPI
 * document lists exactly these routes (test/api/docs.test.ts), but for the dashboard's page and
 * files and /docs' scripts (docs/decisions.md#d16).
 */
export function apiRouter(deps: ApiDeps): Router {
  const router = new Router({ methods: [...METHODS] });
  marketRoutes(deps, router);
  streamRoutes(deps, router);
  authRoutes(deps, router);
  alertRoutes(deps, router);
  healthRoutes(deps, router);
  docsRoutes(deps.encodings, router);
  dashboardRoutes(deps.encodings, deps.config.trendingWindows, router);
  mcpRoutes(deps, router);
  return router;
}

export function createApp(deps: ApiDeps): Koa {
  const app = new Koa({ proxy: deps.config.trustProxy, maxIpsCount: 1 });
  // Errors are rendered and logged by errorHandler; Koa's own printer would only add noise.
  app.silent = true;

  // Outermost: it sends the final body, a large one in slices (http/paced-body.ts).
  app.use(pacedBodies);
  app.use(requestContext(deps));
  app.use(errorHandler(deps.logger));
  app.use(publicCors(PUBLIC_PREFIXES));
  // Before routing: a presented API key is checked on every route (auth/api-key-auth.ts).
  app.use(apiKeyAuth(deps.keyVerifier));
  const router = apiRouter(deps);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

export function createRequestListener(deps: ApiDeps): RequestListener {
  const koa = createApp(deps).callback();
  // Koa's callback settles every request itself (its own error handling answers and logs), so
  // nothing is lost by not awaiting it here.
  const fast = fastReads(deps);
  return (req, res) => {
    if (fast(req, res)) return;
    // On every answer (the fast path's carry it in their header fields): no browser may read a
    // JSON error or an SSE stream as HTML or script. Set here rather than before the fast path: a
    // header set ahead of writeHead's fields sends node:http down its slow path, about a
    // microsecond of every cached read (bench).
    res.setHeader('X-Content-Type-Options', 'nosniff');
    void koa(req, res);
  };
}
