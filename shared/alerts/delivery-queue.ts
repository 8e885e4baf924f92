/**
 * The webhook delivery queue: its own BullMQ queue, so deliveries scale apart from refreshes
 * (WORKER_ROLES, README). A job is one event to one webhook; its id is derived from the event
 * and the channel, so enqueueing the same firing twice adds one job, and every attempt of it
 * carries the same `webhook-id`.
 */
import { createHash } from 'node:crypto';
import type { JobsOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { alertKeys } from '../keyspace.js';
import { runScript } from '../redis-scripts.js';
import type { AlertsConfig } from './alerts-config.js';
import { AlertStore } from './alert-store.js';
import type { AlertEvent } from './alert-types.js';

export const ALERT_DELIVERY_QUEUE = 'alert-delivery';
export const DELIVER_JOB = 'deliver-webhook';
/** The backoff type the delivery worker computes itself (deliveryBackoffMs). */
export const WEBHOOK_BACKOFF = 'webhook';

export interface DeliveryJobData {
  /** The Standard Webhooks message id (`webhook-id`): the same on every attempt. */
  eventId: string;
  ruleId: string;
  /** The rule's owner, whose outstanding deliveries are counted (absent on jobs queued before the count was kept). */
  userId?: string;
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

/** A user's outstanding count outlives the longest retry schedule (15 attempts at the 24 h maximum wait at worst). */
const OUTSTANDING_TTL_SECONDS = 16 * 86_400;

export const deliveryJobId = (data: Pick<DeliveryJobData, 'eventId' | 'channel'>): string => `${data.eventId}-${data.channel}`;

/**
 * Queues deliveries within the caps (README, Alerts, "Limits"): none while the whole queue holds
 * ALERTS_QUEUE_MAX waiting or delayed, and at most ALERTS_USER_OUTSTANDING_MAX outstanding per
 * user, the oldest dropped past it (a job being tried is left to finish). Every delivery not sent
 * is recorded `dropped` on its rule's log, with why. Returns how many were dropped.
 */
export async function enqueueDeliveries(
  queue: Queue<DeliveryJobData>,
  redis: Redis,
  config: AlertsConfig,
  deliveries: readonly DeliveryJobData[],
): Promise<number> {
  if (deliveries.length === 0) return 0;
  const store = new AlertStore(redis);
  const counts = await queue.getJobCounts('waiting', 'delayed');
  if ((counts.waiting ?? 0) + (counts.delayed ?? 0) >= config.queueMax) {
    const reason = `not sent: the delivery queue was full (${config.queueMax} deliveries waiting)`;
    await recordDropped(
      store,
      deliveries.map((data) => ({ data, attempt: 1 })),
      reason,
    );
    return deliveries.length;
  }
  const over = new Set<string>();
  for (const [userId, jobs] of Map.groupBy(deliveries, (data) => data.userId ?? '')) {
    if (userId === '') continue;
    const args = [config.userOutstandingMax, OUTSTANDING_TTL_SECONDS, ...jobs.flatMap((data) => [data.firedAtMs, deliveryJobId(data)])];
    for (const id of (await runScript(redis, 'admitDeliveries', [alertKeys.outstanding(userId)], args)) as string[]) over.add(id);
  }
  const kept = deliveries.filter((data) => !over.has(deliveryJobId(data)));
  await queue.addBulk(kept.map((data) => ({ name: DELIVER_JOB, data, opts: deliveryJobOptions(config, deliveryJobId(data)) })));
  if (over.size === 0) return 0;
  const dropped = deliveries.filter((data) => over.has(deliveryJobId(data))).map((data) => ({ data, attempt: 1 }));
  const added = new Set(deliveries.map(deliveryJobId));
  for (const id of over) {
    if (added.has(id)) continue;
    const job = await queue.getJob(id);
    // Gone or ended already (its count outlived it): nothing to drop.
    if (!job || job.finishedOn) continue;
    if ((await queue.remove(id)) === 1) dropped.push({ data: job.data, attempt: job.attemptsMade + 1 });
    // Locked by an attempt under way: left to finish, and still counted until it ends.
    else if (job.data.userId) await redis.zadd(alertKeys.outstanding(job.data.userId), job.data.firedAtMs, id);
  }
  const reason = `not sent: its user had more than ${config.userOutstandingMax} deliveries outstanding, and it was the oldest`;
  await recordDropped(store, dropped, reason);
  return dropped.length;
}

/** Records each delivery not sent on its rule's log, as the attempt it would have been. */
async function recordDropped(
  store: AlertStore,
  deliveries: readonly { data: DeliveryJobData; attempt: number }[],
  reason: string,
): Promise<void> {
  const at = new Date().toISOString();
  for (const { data, attempt } of deliveries) {
    await store.recordAttempt(data.ruleId, {
      eventId: data.eventId,
      type: data.event.type,
      url: data.url,
      attempt,
      at,
      outcome: 'dropped',
      status: null,
      latencyMs: 0,
      error: reason,
    });
  }
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
