/** The worker process: the only code that talks to the upstream index. */
import { loadConfigOrExit } from '../../../shared/config.js';
import { createLogger } from '../../../shared/logger.js';
import { checkRedisPolicyFirst } from '../../../shared/redis-policy.js';
import { redactUrl } from '../../../shared/redact-url.js';
import { onShutdown, refuseToRun } from '../../../shared/shutdown.js';
import { startWorkerFromConfig } from './start-from-config.js';

const config = loadConfigOrExit();
const logger = createLogger(config, 'worker');
const redisPolicy = { production: config.nodeEnv === 'production', refuse: refuseToRun };
await checkRedisPolicyFirst(config, redisPolicy);
const worker = await startWorkerFromConfig(config, logger, { redisPolicy });
// The URL may carry credentials (user:key@host, ?api_key=): log it redacted.
logger.info(
  config.indexProvider === 'composite'
    ? { indexProvider: 'composite' }
    : { indexProvider: 'index', indexApiUrl: redactUrl(config.indexApiUrl) },
  'worker started',
);

onShutdown(logger, () => worker.close());
