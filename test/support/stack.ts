/**
 * The whole service in one test process: the simulator on port 0, N workers and the API on
 * port 0, over a real Redis. Everything is closed by `close()`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../apps/index-sim/src/server.js';
import { createRequestListener } from '../../apps/api/src/app.js';
import { createApiDeps, type ApiDeps } from '../../apps/api/src/deps.js';
import { limitsFrom, startWebServer, stopWebServer } from '../../apps/api/src/server.js';
import { createIndexClient } from '../../apps/worker/src/providers/index-client.js';
import { startWorkerFromConfig } from '../../apps/worker/src/start-from-config.js';
import type { RunningWorker } from '../../apps/worker/src/worker.js';
import { loadConfig, type Config } from '../../shared/config.js';
import { createLogger } from '../../shared/logger.js';
import { createRedis } from '../../shared/redis.js';
import { redisFor, sharedRedis } from './shared-redis.js';
import type { Resolver } from '../../shared/alerts/address-policy.js';
import { eventually } from './eventually.js';

export interface StackOptions {
  /** Worker processes to run (in-process). Default 1; 0 for none. */
  workers?: number;
  /** A Redis of the test's own (outage tests); default the shared one (a cluster under TEST_REDIS=cluster), under a fresh key prefix. */
  redisUrl?: string;
  /** A cluster of the test's own (`host:port,...`), instead of redisUrl. */
  redisClusterNodes?: string;
  simulator?: SimulatorOptions;
  env?: Record<string, string>;
  /** Upstream timeouts for the workers (fault tests shorten them). */
  indexTimeouts?: { listTimeoutMs?: number; accountTimeoutMs?: number };
  /** The workers' resolver of webhook hosts (alert tests). */
  alertResolver?: Resolver;
}

export interface Stack {
  apiUrl: string;
  sim: Simulator;
  /** A plain client for arranging and asserting (a cluster client on a cluster: the same commands). */
  redis: Redis;
  /** The environment that points a child process (a script, a Procfile process) at the stack's Redis. */
  redisEnv: Record<string, string>;
  /** A BullMQ queue on the stack's Redis, with a connection of its own that closing it closes. */
  queue<T = unknown>(name: string): Queue<T>;
  config: Config;
  deps: ApiDeps;
  workers: RunningWorker[];
  startWorkers(count: number): Promise<RunningWorker[]>;
  close(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const redisEnv = await testRedisEnv(options);
  const redis = createRedis(loadConfig({ NODE_ENV: 'test', ...redisEnv }), 'worker', 'test-arrange', { warn() {}, info() {} });
  redis.on('error', () => {}); // outage tests stop Redis under it
  const sim = await startSimulator(options.simulator);
  const config = loadConfig({
    NODE_ENV: 'test',
    ...redisEnv,
    INDEX_API_URL: sim.url,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...options.env,
  });
  const logger = createLogger(config, 'test');
  const workers: RunningWorker[] = [];
  const startWorkers = async (count: number) => {
    // The worker as its process starts it, from the stack's config (INDEX_API_URL: the simulator).
    const provider = options.indexTimeouts && createIndexClient({ baseUrl: sim.url, apiKey: undefined, ...options.indexTimeouts });
    const started = await Promise.all(
      Array.from({ length: count }, () => startWorkerFromConfig(config, logger, { provider, alertResolver: options.alertResolver })),
    );
    workers.push(...started);
    return started;
  };
  await startWorkers(options.workers ?? 1);
  const deps = await createApiDeps(config, logger);
  const server: Server = await startWebServer(createRequestListener(deps), 0, '127.0.0.1', limitsFrom(config));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}`,
    sim,
    redis,
    redisEnv,
    queue: <T>(name: string) => redisFor(redisEnv).queue<T>(name),
    config,
    deps,
    workers,
    startWorkers,
    async close() {
      deps.stream.close();
      deps.alertFeed.close();
      await stopWebServer(server, { deadlineMs: 1000, idleCloseMs: 0 });
      await deps.close();
      await Promise.all(workers.map((worker) => worker.close(2000)));
      await sim.close();
      redis.disconnect();
    },
  };
}

/** Where the stack's Redis is: the shared one under a fresh key prefix unless the test brings its own. */
async function testRedisEnv(options: StackOptions): Promise<Record<string, string>> {
  if (options.redisClusterNodes) return { REDIS_CLUSTER_NODES: options.redisClusterNodes };
  if (options.redisUrl) return { REDIS_URL: options.redisUrl };
  return (await sharedRedis()).env;
}

export { eventually };

/**
 * The stack's first refreshes done (/readyz 200). They run in the test's process beside the
 * simulator: a stats miss asked meanwhile can wait past the worker's 3 s per-account upstream
 * timeout and be a 503, not the answer the test counts.
 */
export async function whenReady(stack: Pick<Stack, 'apiUrl'>): Promise<void> {
  await eventually(async () => ((await fetch(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 30_000, 'ready (/readyz 200)');
}
