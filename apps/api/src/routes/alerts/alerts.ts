/** The alert rules of the authenticated user (a JWT or an API key acting as its user). */
import Router from '@koa/router';
import { authenticatedUser, bearerAuth } from '../../auth/bearer.js';
import type { ApiDeps } from '../../deps.js';
import { jsonBody } from '../auth/json-body.js';
import { ALERT_BODY_LIMIT, parseCreateAlert, parseFeedLastEventId, parseUpdateAlert } from '../../alerts/alert-schemas.js';
import { UnavailableError } from '../../../../../shared/errors.js';

export function alertRoutes(deps: Pick<ApiDeps, 'auth' | 'alerts' | 'alertFeed'>, router = new Router()): Router {
  const { alerts } = deps;
  const signedIn = bearerAuth(deps.auth);
  const body = jsonBody({ limit: ALERT_BODY_LIMIT });
  const noStore = async (ctx: { set(name: string, value: string): void }, next: () => Promise<unknown>) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  };

  // Before /api/alerts/:id, which would take `stream` for an id.
  router.get('/api/alerts/stream', signedIn, async (ctx) => {
    const userId = authenticatedUser(ctx).id;
    const lastEventId = parseFeedLastEventId(ctx.get('Last-Event-ID') || undefined);
    const refusal = deps.alertFeed.refusal(userId);
    if (refusal === 'full') throw new UnavailableError('Too many stream clients', 5);
    if (refusal === 'user-full') throw new UnavailableError('Too many alert streams for this user', 5);
    if (refusal === 'closing') throw new UnavailableError('Service unavailable', 1);
    ctx.status = 200;
    ctx.respond = false;
    await deps.alertFeed.add(ctx.req, ctx.res, userId, lastEventId);
  });

  router.post('/api/alerts', noStore, signedIn, body, async (ctx) => {
    const { rule, secret } = await alerts.create(authenticatedUser(ctx).id, parseCreateAlert(ctx.request.body));
    ctx.status = 201;
    ctx.set('Location', `/api/alerts/${rule.id}`);
    ctx.body = { ...rule, secret };
  });
  router.get('/api/alerts', noStore, signedIn, async (ctx) => {
    ctx.body = { data: await alerts.list(authenticatedUser(ctx).id) };
  });
  router.get('/api/alerts/:id', noStore, signedIn, async (ctx) => {
    const { rule, etag } = await alerts.getTagged(authenticatedUser(ctx).id, ctx.params.id ?? '');
    ctx.set('ETag', etag);
    ctx.body = rule;
  });
  // If-Match (an ETag of GET or an earlier PATCH): applied only over that version, else 412.
  router.patch('/api/alerts/:id', noStore, signedIn, body, async (ctx) => {
    const patch = parseUpdateAlert(ctx.request.body);
    const { rule, etag } = await alerts.update(authenticatedUser(ctx).id, ctx.params.id ?? '', patch, ctx.get('If-Match') || undefined);
    ctx.set('ETag', etag);
    ctx.body = rule;
  });
  router.delete('/api/alerts/:id', noStore, signedIn, async (ctx) => {
    await alerts.delete(authenticatedUser(ctx).id, ctx.params.id ?? '');
    ctx.status = 204;
  });
  router.post('/api/alerts/:id/secret', noStore, signedIn, async (ctx) => {
    const { rule, secret } = await alerts.rotateSecret(authenticatedUser(ctx).id, ctx.params.id ?? '');
    ctx.body = { ...rule, secret };
  });
  router.post('/api/alerts/:id/test', noStore, signedIn, async (ctx) => {
    ctx.status = 202;
    ctx.body = { eventId: await alerts.sendTest(authenticatedUser(ctx).id, ctx.params.id ?? '') };
  });
  router.get('/api/alerts/:id/deliveries', noStore, signedIn, async (ctx) => {
    ctx.body = { data: await alerts.deliveries(authenticatedUser(ctx).id, ctx.params.id ?? '') };
  });
  return router;
}
