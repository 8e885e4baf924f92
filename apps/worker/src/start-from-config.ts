/**
 * The worker as its process runs it, from the configuration alone: the provider INDEX_PROVIDER
 * names (with its state in Redis) and every setting the config holds. main() starts it; so do the
 * tests' stacks, so what they run is what a deployment runs.
 */
import type { Config } from '../../../shared/config.js';
import type { Logger } from '../../../shared/logger.js';
import { closeRedis, createRedis } from '../../../shared/redis.js';
import { redisCounter } from './counters.js';
import { createWorkerProvider } from './providers/create-provider.js';
import type { MarketProvider } from './providers/market-provider.js';
import { startWorker, type RunningWorker, type WorkerOptions } from './worker.js';

export interface FromConfigOptions extends Pick<WorkerOptions, 'redisPolicy' | 'alertResolver'> {
  /** Instead of the one the config names: tests give an index client with shorter timeouts. */
  provider?: MarketProvider;
}

export async function startWorkerFromConfig(config: Config, logger: Logger, options: FromConfigOptions = {}): Promise<RunningWorker> {
  // What the composite adapters remember (ids, first-seen times, held posts) lives in Redis.
  const providerRedis = createRedis(config, 'worker', 'worker-providers', logger);
  const configured = await createWorkerProvider(config, providerRedis, logger, redisCounter(providerRedis));
  const worker = await startWorker({
    redis: config,
    provider: options.provider ?? configured.provider,
    refreshEveryMsByJob: configured.refreshEveryMsByJob,
    logger,
    refreshEveryMs: config.refreshIntervalMs,
    upstreamPerMinute: config.indexRateLimitPerMinute,
    historyDays: config.historyDays,
    trendingWindows: config.trendingWindows,
    alerts: config.alerts,
    callers: config.callers,
    redisPolicy: options.redisPolicy,
    alertResolver: options.alertResolver,
  });
  return {
    async close(graceMs) {
      await worker.close(graceMs);
      await closeRedis(providerRedis);
    },
  };
}
