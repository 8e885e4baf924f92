/** Liveness, readiness and metrics for the platform (docs/decisions.md#d9). */
import Router from '@koa/router';
import { NotReadyError, UnavailableError } from '../../../../../shared/errors.js';
import { readSnapshotVersions } from '../../../../../shared/snapshot-store.js';
import { keys } from '../../../../../shared/keyspace.js';
import { activeSnapshots } from '../../../../../shared/snapshot-kinds.js';
import type { ApiDeps } from '../../deps.js';
import { metricsAuth } from './metrics-auth.js';

/** Snapshots come back by themselves after Redis lost its data; users only come back from a backup. */
export const USER_STORE_EMPTY = 'Not ready: the user store is empty (restore it from a backup: README, Operating)';

export function healthRoutes({ redis, metrics, config }: ApiDeps, router = new Router()): Router {
  router.get('/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const snapshots = activeSnapshots(config.trendingWindows);
    const versions = await readSnapshotVersions(redis, snapshots);
    const absent = snapshots.filter((_, i) => !versions[i]);
    if (absent.length > 0) throw new NotReadyError(`Not ready: no snapshot yet for ${absent.join(', ')}`, 5);
    if (config.nodeEnv === 'production' && (await redis.scard(keys.users())) === 0) {
      throw new UnavailableError(USER_STORE_EMPTY, 30);
    }
    ctx.body = { status: 'ready' };
  });

  router.get('/metrics', metricsAuth(config.metricsToken), async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });

  return router;
}
