/** POST /api/auth/login, and the bearer-protected GET /api/auth/me and POST /api/admin/refresh (docs/decisions.md#d3, #d4). */
import Router from '@koa/router';
import { authenticatedUser, bearerAuth, requireRole } from '../../auth/bearer.js';
import type { ApiDeps } from '../../deps.js';
import { jsonBody } from './json-body.js';
import { LOGIN_BODY_LIMIT, parseLoginBody, type RefreshAcknowledgement } from './schema.js';

export function authRoutes(deps: ApiDeps, router = new Router()): Router {
  const { auth } = deps;

  router.post('/api/auth/login', jsonBody({ limit: LOGIN_BODY_LIMIT }), async (ctx) => {
    const { email, password } = parseLoginBody(ctx.request.body);
    // ctx.ip honours TRUST_PROXY (Koa's `proxy`, one hop): the throttle's client address.
    const result = await auth.login(email, password, ctx.ip);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = result;
  });

  router.get('/api/auth/me', bearerAuth(auth), (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = authenticatedUser(ctx);
  });

  router.post('/api/admin/refresh', bearerAuth(auth), requireRole('admin'), async (ctx) => {
    await deps.refreshAll();
    ctx.status = 202;
    ctx.body = { status: 'refresh requested' } satisfies RefreshAcknowledgement;
  });

  return router;
}
