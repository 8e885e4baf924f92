/** The worker process: the only code that talks to the upstream index. */
import { loadConfigOrExit } from '../../../shared/config.js';
import { createLogger } from '../../../shared/logger.js';
import { checkRedisPolicyFirst } from '../../../shared/redis-policy.js';
import { redactUrl } from '../../../shared/redact-url.js';
import { onShutdown, refuseToRun } from '../../../shared/shutdown.js';
import { closeRedis, createRedis } from '../../../shared/redis.js';
import { redisCounter } from './counters.js';
import { createWorkerProvider } from './providers/create-provider.js';
import { startWorker } from './worker.js';

const config = loadConfigOrExit();
const logger = createLogger(config, 'worker');
const redisPolicy = { production: config.nodeEnv === 'production', refuse: refuseToRun };
await checkRedisPolicyFirst(config, redisPolicy);
// What the composite adapters remember (ids, first-seen times, held posts) lives in Redis.
const providerRedis = createRedis(config, 'worker', 'worker-providers');
const { provider, refreshEveryMsByJob } = await createWorkerProvider(config, providerRedis, logger, redisCounter(providerRedis));
const worker = await startWorker({
  redis: config,
  provider,
  refreshEveryMsByJob,
  logger,
  refreshEveryMs: config.refreshIntervalMs,
  upstreamPerMinute: config.indexRateLimitPerMinute,
  historyDays: config.historyDays,
  trendingWindows: config.trendingWindows,
  alerts: config.alerts,
  redisPolicy,
});
// The URL may carry credentials (user:key@host, ?api_key=): log it redacted.
logger.info(
  config.indexProvider === 'composite'
    ? { indexProvider: 'composite' }
    : { indexProvider: 'index', indexApiUrl: redactUrl(config.indexApiUrl) },
  'worker started',
);

onShutdown(logger, async () => {
  await worker.close();
  await closeRedis(providerRedis);
});
