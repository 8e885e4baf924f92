/** The worker process: the only code that talks to the upstream index. */
import { loadConfigOrExit } from '../../../shared/config.js';
import { createLogger } from '../../../shared/logger.js';
import { checkRedisPolicyFirst } from '../../../shared/redis-policy.js';
import { redactUrl } from '../../../shared/redact-url.js';
import { onShutdown, refuseToRun } from '../../../shared/shutdown.js';
import { createIndexClient } from './index-client.js';
import { startWorker } from './worker.js';

const config = loadConfigOrExit();
const logger = createLogger(config, 'worker');
const redisPolicy = { production: config.nodeEnv === 'production', refuse: refuseToRun };
await checkRedisPolicyFirst(config, redisPolicy);
const index = createIndexClient({ baseUrl: config.indexApiUrl, apiKey: config.indexApiKey });
const worker = await startWorker({
  redis: config,
  index,
  logger,
  refreshEveryMs: config.refreshIntervalMs,
  upstreamPerMinute: config.indexRateLimitPerMinute,
  historyDays: config.historyDays,
  redisPolicy,
});
// The URL may carry credentials (user:key@host, ?api_key=): log it redacted.
logger.info({ indexApiUrl: redactUrl(config.indexApiUrl) }, 'worker started');

onShutdown(logger, async () => {
  await worker.close();
});
