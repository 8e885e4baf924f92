import type { Queue } from 'bullmq';
import { createAlertEvaluator, type AlertEvaluator } from '../../apps/worker/src/alerts/evaluator.js';
import type { DeliveryJobData } from '../../shared/alerts/delivery-queue.js';
import { createLogger } from '../../shared/logger.js';
import type { Stack } from './stack.js';

/** An alert evaluator on the stack's Redis and configuration, as the worker builds one, queueing to `deliveries`. */
export function stackEvaluator(stack: Stack, deliveries: Queue<DeliveryJobData>, now?: () => number): AlertEvaluator {
  return createAlertEvaluator({
    redis: stack.redis,
    deliveries,
    config: stack.config.alerts,
    logger: createLogger(stack.config, 'test'),
    now,
  });
}
