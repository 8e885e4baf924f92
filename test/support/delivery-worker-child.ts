/**
 * A delivery worker in a process of its own, for the test that SIGKILLs it mid-delivery: the
 * configuration comes from the environment as in production (WORKER_ROLES=delivery).
 */
import { startDeliveryWorker } from '../../apps/worker/src/alerts/delivery-worker.js';
import { loadConfig } from '../../shared/config.js';
import { createLogger } from '../../shared/logger.js';
import { createRedis } from '../../shared/redis.js';

const config = loadConfig();
const logger = createLogger(config, 'delivery-child');
const delivery = startDeliveryWorker({
  redis: createRedis(config, 'worker', 'child', logger),
  connection: createRedis(config, 'blocking', 'child-delivery', logger),
  config: config.alerts,
  logger,
});
await delivery.worker.waitUntilReady();
process.stdout.write('ready\n');
