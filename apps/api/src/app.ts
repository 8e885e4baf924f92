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
import { pairlistRoutes } from './routes/market/pairlist.js';
import { exportRoutes } from './routes/export/export.js';
import { streamRoutes } from './routes/market/stream.js';

/**
 * Every route, on one router (each router adds its own dispatch to every request). Every method
 * Node's parser accepts counts as implemented, so an unusual one is 405 + Allow on a known path,
 * not allowedMethods()'s 501.
 */
export function apiRouter(deps: ApiDeps): Router {
  const router = new Router({ methods: [...METHODS] });
  marketRoutes(deps, router);
  pairlistRoutes(deps, router);
  exportRoutes(deps, router);
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
  const fast = fastReads(deps);
  return (req, res) => {
    if (fast(req, res)) return;
    // No browser may read a JSON error or an SSE stream as HTML or script. Not before the fast path
    // (its fields carry it): a header set ahead of writeHead's sends node:http down its slow path.
    res.setHeader('X-Content-Type-Options', 'nosniff');
    void koa(req, res); // Koa's callback answers and logs its own errors
  };
}
