/**
 * The webhook delivery queue: its own BullMQ queue, so deliveries scale apart from refreshes
 * (WORKER_ROLES, README). A job is one event to one webhook; its id is derived from the event
 * and the channel, so enqueueing the same firing twice adds one job, and every attempt of it
 * carries the same `webhook-id`.
 */
import { createHash } from 'node:crypto';
import type { JobsOptions, Queue } from 'bullmq';
import type { AlertsConfig } from './alerts-config.js';
import type { AlertEvent } from './alert-types.js';

export const ALERT_DELIVERY_QUEUE = 'alert-delivery';
export const DELIVER_JOB = 'deliver-webhook';
/** The backoff type the delivery worker computes itself (deliveryBackoffMs). */
export const WEBHOOK_BACKOFF = 'webhook';

export interface DeliveryJobData {
  /** The Standard Webhooks message id (`webhook-id`): the same on every attempt. */
  eventId: string;
  ruleId: string;
  /** Which of the rule's channels (its index). */
  channel: number;
  url: string;
  event: AlertEvent;
  /** When the firing was decided (ms), for the refresh-to-delivery latency. */
  firedAtMs: number;
}

/** A stable message id for one firing (rule + refresh) or test. */
export function eventIdFor(ruleId: string, occasion: string): string {
  return `msg_${createHash('sha256').update(`${ruleId}\n${occasion}`).digest('base64url').slice(0, 24)}`;
}

export function deliveryJobOptions(config: AlertsConfig, jobId: string): JobsOptions {
  return {
    jobId,
    attempts: config.deliveryAttempts,
    backoff: { type: WEBHOOK_BACKOFF, delay: config.retryBaseMs },
    removeOnComplete: { age: 24 * 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
  };
}

export async function enqueueDeliveries(
  queue: Queue<DeliveryJobData>,
  config: AlertsConfig,
  deliveries: readonly DeliveryJobData[],
): Promise<void> {
  if (deliveries.length === 0) return;
  await queue.addBulk(
    deliveries.map((data) => ({ name: DELIVER_JOB, data, opts: deliveryJobOptions(config, `${data.eventId}-${data.channel}`) })),
  );
}

/**
 * The wait before attempt `attemptsMade + 1`: the base doubled per attempt made, up to the
 * maximum, with ±20 % jitter so receivers coming back are not hit all at once; never sooner
 * than the receiver's Retry-After. With the defaults (10 s, cap 6 h, 15 attempts): 10 s, 20 s,
 * 40 s, 80 s, 160 s, 5.3 min, 10.7 min, 21 min, 43 min, 85 min, 2.8 h, 5.7 h, 6 h, 6 h: about 23 h.
 */
export function deliveryBackoffMs(
  attemptsMade: number,
  options: { baseMs: number; maxMs: number; retryAfterMs?: number | undefined; random?: () => number },
): number {
  const exponential = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attemptsMade - 1));
  const jitter = 1 + ((options.random ?? Math.random)() * 0.4 - 0.2);
  const wait = Math.round(Math.min(options.maxMs, exponential * jitter));
  // Retry-After wins over the schedule, up to the longest wait (ALERTS_RETRY_MAX_DELAY_MS): a
  // receiver cannot park an event beyond what the schedule itself would.
  return Math.max(wait, Math.min(options.retryAfterMs ?? 0, options.maxMs));
}
