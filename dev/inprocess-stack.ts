/**
 * A whole stack in one process for the dev/ measurements of issue 38: a private redis-server,
 * the index simulator, one worker and the API on a loopback port, with `env` over the defaults.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { createRequestListener } from '../apps/api/src/app.js';
import { createApiDeps } from '../apps/api/src/deps.js';
import { limitsFrom, startWebServer, stopWebServer } from '../apps/api/src/server.js';
import { startSimulator, type Simulator } from '../apps/index-sim/src/server.js';
import { createIndexClient } from '../apps/worker/src/providers/index-client.js';
import { startWorker } from '../apps/worker/src/worker.js';
import { loadConfig } from '../shared/config.js';
import { createLogger } from '../shared/logger.js';
import { createRedis } from '../shared/redis.js';
import { startTestRedis } from './redis-server.js';

export interface InProcessStack {
  api: string;
  sim: Simulator;
  /** A plain client on the stack's Redis. */
  redis: Redis;
  close(): Promise<void>;
}

export async function startInProcessStack(env: Record<string, string> = {}): Promise<InProcessStack> {
  const redisServer = await startTestRedis();
  const sim = await startSimulator();
  const config = loadConfig({ NODE_ENV: 'test', REDIS_URL: redisServer.url, INDEX_API_URL: sim.url, LOG_LEVEL: 'silent', ...env });
  const logger = createLogger(config, 'dev-stack');
  const worker = await startWorker({
    redis: config,
    refreshEveryMs: config.refreshIntervalMs,
    provider: createIndexClient({ baseUrl: sim.url, apiKey: undefined }),
    logger,
    upstreamPerMinute: config.indexRateLimitPerMinute,
    historyDays: config.historyDays,
  });
  const deps = await createApiDeps(config, logger);
  const server: Server = await startWebServer(createRequestListener(deps), 0, '127.0.0.1', limitsFrom(config));
  const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const redis = createRedis(config, 'worker', 'dev-stack');
  while ((await fetch(`${api}/readyz`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
  return {
    api,
    sim,
    redis,
    async close() {
      await redis.quit();
      await stopWebServer(server, { deadlineMs: 1000, idleCloseMs: 0 });
      await deps.close();
      await worker.close(2000);
      await sim.close();
      await redisServer.stop();
    },
  };
}
