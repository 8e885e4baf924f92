/**
 * INDEX_PROVIDER=composite as a platform runs it: the Procfile's `worker` and `web` as real
 * children (the compiled build), configured by the environment only, against the three
 * providers' fixture servers and the tests' Redis (flushed first). Resolves once the API is
 * ready and the first trending, trending-cas and news refreshes have landed.
 */
import { Redis } from 'ioredis';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import { startProcess, type ProcfileProcess } from '../faults/support/procfile.js';
import { eventually } from './eventually.js';
import { startProviderFixtures, type ProviderFixtures } from '../../dev/provider-fixtures/index.js';
import type { XFixtureOptions } from '../../dev/provider-fixtures/x.js';
import { freePort, sharedTestRedis } from './redis-server.js';
import { freshKeyPrefix } from './shared-redis.js';

export interface CompositeProcfileOptions {
  x?: XFixtureOptions;
  /** Arranges the fixtures before the processes start (e.g. Elfa's key status). */
  arrange?: (fixtures: ProviderFixtures) => void;
  /** Over the processes' environment (LOG_LEVEL is info unless given). */
  env?: Record<string, string>;
}

export interface CompositeProcfile {
  apiUrl: string;
  fixtures: ProviderFixtures;
  worker: ProcfileProcess;
  web: ProcfileProcess;
  /** A plain client on the processes' Redis. */
  redis: Redis;
  close(): Promise<void>;
}

export async function startCompositeProcfile(options: CompositeProcfileOptions = {}): Promise<CompositeProcfile> {
  const fixtures = await startProviderFixtures({ x: options.x });
  options.arrange?.(fixtures);
  // One node even under TEST_REDIS=cluster, under a key prefix of its own.
  const prefix = freshKeyPrefix();
  const testRedis = await sharedTestRedis();
  const redis = new Redis(testRedis.url, { protocol: 2 });
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const env = {
    NODE_ENV: 'development',
    PORT: String(port),
    REDIS_URL: testRedis.url,
    REDIS_KEY_PREFIX: prefix,
    JWT_SECRET: 'composite-procfile-secret-'.padEnd(48, 'x'),
    LOG_LEVEL: 'info',
    ...fixtures.env,
    ...options.env,
  };
  const worker = startProcess('worker', env);
  const web = startProcess('web', env);
  const close = async () => {
    await Promise.all([worker.stop('SIGTERM', 10_000), web.stop('SIGTERM', 10_000)]);
    redis.disconnect();
    await fixtures.close();
  };
  try {
    await eventually(
      async () => ((await fetch(`${apiUrl}/readyz`).catch(() => undefined))?.ok ? true : undefined),
      60_000,
      'the API ready',
    );
    const snapshots = (['trending', 'trending-cas', 'news'] as const).map((name) => snapshotKeys.snapshot(name));
    await eventually(async () => ((await redis.exists(...snapshots)) === 3 ? true : undefined), 60_000, 'the first refreshes');
  } catch (error) {
    await close();
    throw error;
  }
  return { apiUrl, fixtures, worker, web, redis, close };
}
