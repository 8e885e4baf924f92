/** Login, the caller's user and budget, and the admin's forced refresh (docs/decisions.md#d3, #d4). */
import Router from '@koa/router';
import { apiKeyOf } from '../../auth/api-key-auth.js';
import { authentication, bearerAuth, requireRole } from '../../auth/bearer.js';
import type { ApiDeps } from '../../deps.js';
import { jsonBody } from './json-body.js';
import { RateLimitedError } from '../../../../../shared/errors.js';
import { FORCED_REFRESH_SPACING_MS } from '../../../../../shared/queues.js';
import { LOGIN_BODY_LIMIT, parseLoginBody, type MeResponse, type RefreshAcknowledgement, type Usage } from './schema.js';

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
    const { user, apiKey } = authentication(ctx);
    // A JWT's answer is the user alone; a key's also names the key (never the key itself).
    ctx.body = (apiKey ? { ...user, credential: { type: 'api-key', ...apiKey.key } } : user) satisfies MeResponse;
  });

  router.get('/api/auth/usage', async (ctx) => {
    const apiKey = apiKeyOf(ctx)?.key;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      client: apiKey ? { type: 'api-key', id: apiKey.id, name: apiKey.name, last4: apiKey.last4 } : { type: 'address' },
      statsMisses: await deps.missBudget.usage(ctx.ip, apiKey?.id),
    } satisfies Usage;
  });

  // At most one run per refresh job per FORCED_REFRESH_SPACING_MS (10 s). When this ask starts
  // none, 429 with Retry-After, not a 202: nothing was accepted, and a loop is told when an ask
  // would start a run; the runs the earlier asks started still land.
  router.post('/api/admin/refresh', bearerAuth(auth), requireRole('admin'), async (ctx) => {
    const { requested, coalesced } = await deps.refreshAll();
    ctx.set('Cache-Control', 'no-store');
    if (requested.length === 0) {
      const retryAfterMs = Math.min(...coalesced.map((entry) => entry.retryAfterMs));
      throw new RateLimitedError(
        `a refresh of every snapshot was asked for less than ${FORCED_REFRESH_SPACING_MS / 1000} s ago; its runs are on their way`,
        retryAfterMs / 1000,
      );
    }
    ctx.status = 202;
    ctx.body = {
      status: 'refresh requested',
      requested,
      coalesced: coalesced.map((entry) => entry.job),
    } satisfies RefreshAcknowledgement;
  });

  return router;
}
