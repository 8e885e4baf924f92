/**
 * The BullMQ worker of the webhook delivery queue (README, "Alerts", "Delivery"): each job is one
 * event to one webhook, each attempt logged on the rule; an event that fails for good counts
 * against the rule, which is disabled after ALERTS_DISABLE_AFTER_FAILED_EVENTS in a row, or at
 * once when one event failed after every retry.
 */
import { DelayedError, Worker, type Job, type MinimalJob } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AlertsConfig } from '../../../../shared/alerts/alerts-config.js';
import { AlertStore, type DeliveryAttempt } from '../../../../shared/alerts/alert-store.js';
import type { StoredRule } from '../../../../shared/alerts/alert-types.js';
import { ALERT_DELIVERY_QUEUE, deliveryBackoffMs, type DeliveryJobData } from '../../../../shared/alerts/delivery-queue.js';
import type { Logger } from '../../../../shared/logger.js';
import { queueBaseOptions } from '../../../../shared/queues.js';
import type { Resolver } from '../../../../shared/alerts/address-policy.js';
import { alertKeys } from '../../../../shared/keyspace.js';
import { createWebhookSender, type AttemptResult } from './webhook-sender.js';
import { alertCounters } from './alert-counters.js';
import { hostHealth } from './host-health.js';

/** A retryable failure: BullMQ tries again after deliveryBackoffMs, never sooner than the receiver's Retry-After. */
class RetryableDeliveryError extends Error {
  override readonly name = 'RetryableDeliveryError';
  constructor(
    message: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }
}

/**
 * How long a job of a user at its in-flight limit waits before it is tried again: doubled each time
 * it is put back, up to USER_WAIT_MAX_MS (plus up to as much jitter), so 300 waiting jobs of one
 * user do not spin through Redis several times a second each.
 */
const USER_WAIT_MS = 250;
const USER_WAIT_MAX_MS = 4000;

export interface DeliveryWorkerOptions {
  /** The job store's client (rules, attempt log). */
  redis: Redis;
  /** A blocking connection of BullMQ's own. */
  connection: Redis;
  config: AlertsConfig;
  logger: Logger;
  resolve?: Resolver;
}

export function startDeliveryWorker(options: DeliveryWorkerOptions): {
  worker: Worker<DeliveryJobData>;
  close(force?: boolean): Promise<void>;
} {
  const { config, logger } = options;
  const store = new AlertStore(options.redis);
  const count = alertCounters(options.redis);
  const sender = createWebhookSender({ ...config, resolve: options.resolve });
  const hosts = hostHealth(options.redis, config);
  /** Back to the delayed set for `waitMs` (plus jitter) without counting an attempt. */
  const putBack = async (job: Job<DeliveryJobData>, waitMs: number, token?: string): Promise<never> => {
    await job.moveToDelayed(Date.now() + waitMs + Math.floor(Math.random() * Math.min(waitMs, USER_WAIT_MAX_MS)), token);
    throw new DelayedError();
  };
  /** A job that ended for good (delivered, failed or dropped) no longer counts against its user's outstanding cap. */
  const ended = async (job: Job<DeliveryJobData>, userId: string | undefined): Promise<void> => {
    if (userId !== undefined) await options.redis.zrem(alertKeys.outstanding(userId), job.id ?? '');
  };

  // One user's deliveries in flight in this process: beyond config.userInFlight a job waits, so a
  // user whose receivers answer slowly cannot hold every slot (issue 46: fairness).
  const inFlight = new Map<string, number>();
  const deliver = async (job: Job<DeliveryJobData>, token?: string): Promise<{ outcome: string }> => {
    const rule = await store.get(job.data.ruleId);
    // The rule (or its owner, `users remove`) is gone, its log with it: counted, and the job's result says why.
    if (!rule) {
      count.delivery('dropped');
      await ended(job, job.data.userId);
      return { outcome: 'dropped: rule deleted' };
    }
    const held = inFlight.get(rule.userId) ?? 0;
    if (held >= config.userInFlight) {
      const putBackBefore = Math.max(0, (job.attemptsStarted ?? 1) - 1 - job.attemptsMade);
      return putBack(job, Math.min(USER_WAIT_MAX_MS, USER_WAIT_MS * 2 ** putBackBefore), token);
    }
    inFlight.set(rule.userId, held + 1);
    try {
      const paused = await hosts.waitMs(job.data.url);
      if (paused > 0) return await putBack(job, paused, token);
      // deliverFor returns only when the job ends for good; a retry throws.
      const result = await deliverFor(job, rule);
      await ended(job, rule.userId);
      return result;
    } finally {
      const left = (inFlight.get(rule.userId) ?? 1) - 1;
      if (left > 0) inFlight.set(rule.userId, left);
      else inFlight.delete(rule.userId);
    }
  };

  const deliverFor = async (job: Job<DeliveryJobData>, rule: StoredRule): Promise<{ outcome: string }> => {
    const { data } = job;
    if (!rule.enabled && data.event.type === 'alert.fired') return { outcome: 'dropped: rule disabled' };
    // A retry queued before the user changed the channel goes nowhere the rule no longer names.
    if (!rule.channels.some((channel) => channel.url === data.url)) {
      const notSent: AttemptResult = {
        kind: 'failed',
        status: null,
        latencyMs: 0,
        retryable: false,
        error: 'not sent: the rule no longer has this URL',
      };
      await store.recordAttempt(rule.id, logEntry(data, job.attemptsMade + 1, 'dropped', notSent));
      count.delivery('dropped');
      return { outcome: 'dropped: url removed' };
    }
    const now = Date.now();
    const secrets = rule.secrets.filter((s) => s.expiresAt === null || Date.parse(s.expiresAt) > now).map((s) => s.secret);
    const attempt = job.attemptsMade + 1;
    const result = await sender.send({
      url: data.url,
      id: data.eventId,
      timestamp: new Date(now),
      body: JSON.stringify(data.event),
      secrets,
    });
    if (result.kind === 'delivered' || result.retryable) await hosts.record(data.url, result.kind === 'delivered');
    const last = attempt >= (job.opts.attempts ?? 1);
    const outcome = result.kind === 'delivered' ? 'delivered' : result.retryable && !last ? 'retrying' : 'failed';
    // A delivered event also ends the rule's run of failed ones, in the same step.
    await store.recordAttempt(rule.id, logEntry(data, attempt, outcome, result));
    count.delivery(outcome, result.kind === 'delivered' ? Date.now() - data.firedAtMs : undefined);
    if (result.kind === 'delivered') return { outcome };
    if (outcome === 'retrying') throw new RetryableDeliveryError(result.error, result.retryAfterMs);
    // Failed for good: after every retry (about a day with the defaults) the rule is disabled at once.
    const exhausted = result.retryable && last && (job.opts.attempts ?? 1) > 1;
    const reason = exhausted ? `an event could not be delivered after ${attempt} attempts; the last: ${result.error}` : result.error;
    if (await store.recordFailedEvent(rule.id, reason, config.disableAfterFailedEvents, exhausted)) {
      logger.warn({ rule: rule.id, reason }, 'alert rule disabled: its deliveries keep failing');
    }
    return { outcome: `failed: ${result.error}` };
  };

  const worker = new Worker<DeliveryJobData>(ALERT_DELIVERY_QUEUE, deliver, {
    ...queueBaseOptions(),
    connection: options.connection,
    concurrency: config.deliveryConcurrency,
    lockDuration: config.deliveryLockMs,
    stalledInterval: Math.max(1000, Math.floor(config.deliveryLockMs / 2)),
    settings: {
      backoffStrategy: (attemptsMade: number, _type?: string, error?: Error, job?: MinimalJob) => {
        const backoff = job?.opts.backoff;
        const baseMs = typeof backoff === 'object' && backoff.delay ? backoff.delay : config.retryBaseMs;
        const retryAfter = error instanceof RetryableDeliveryError ? error.retryAfterMs : undefined;
        return deliveryBackoffMs(attemptsMade, { baseMs, maxMs: config.retryMaxDelayMs, retryAfterMs: retryAfter });
      },
    },
  });
  worker.on('error', (error) => logger.error({ err: error.message }, 'delivery worker error'));
  worker.on('failed', (job, error) =>
    logger.debug({ id: job?.id, attempt: job?.attemptsMade, err: error.message }, 'delivery attempt failed'),
  );
  return {
    worker,
    async close(force = false) {
      await worker.close(force);
      sender.close();
    },
  };
}

function logEntry(data: DeliveryJobData, attempt: number, outcome: DeliveryAttempt['outcome'], result: AttemptResult): DeliveryAttempt {
  return {
    eventId: data.eventId,
    type: data.event.type,
    url: data.url,
    attempt,
    at: new Date().toISOString(),
    outcome,
    status: result.status,
    latencyMs: result.latencyMs,
    error: result.kind === 'failed' ? result.error.slice(0, 500) : null,
  };
}
