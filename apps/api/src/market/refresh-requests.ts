/**
 * The API's asks for the refresh of an absent snapshot (docs/decisions.md#d8): one deduplicated
 * job, waited for boundedly; not while a failed refresh holds asks back (#d14): that answers at
 * once with the time left, the 503's Retry-After.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Counter, type Registry } from 'prom-client';
import { refreshJobFor, requestRefresh, type RefreshJobData } from '../../../../shared/queues.js';
import { refreshHoldMs } from '../../../../shared/refresh-backoff.js';
import type { SnapshotName } from '../../../../shared/snapshot-kinds.js';
import type { JobWaiter } from './job-waiter.js';

export interface RefreshRequestsOptions {
  redis: Redis;
  queue: Queue<RefreshJobData>;
  waiter: JobWaiter;
  /** How long an ask with `wait` waits for the job. */
  waitMs: number;
  registry: Registry;
}

/**
 * Asks for the refresh that rebuilds `name`; with `wait`, waits for it (boundedly). Resolves with
 * the ms before asking again makes sense when a failed refresh holds asks back (then nothing
 * was asked), else undefined.
 */
export type AskRefresh = (name: SnapshotName, wait: boolean) => Promise<number | undefined>;

export function refreshRequests(options: RefreshRequestsOptions): AskRefresh {
  const { redis, queue, waiter } = options;
  const asks = new Counter({
    name: 'market_refresh_requests_total',
    help: 'Refreshes this API process asked for because a snapshot was absent, by job and outcome (asked; held: a failed refresh holds asks back)',
    labelNames: ['job', 'outcome'] as const,
    registers: [options.registry],
  });
  return async (name, wait) => {
    const job = refreshJobFor[name];
    const heldMs = await refreshHoldMs(redis, job);
    if (heldMs > 0) {
      asks.inc({ job, outcome: 'held' });
      return heldMs;
    }
    asks.inc({ job, outcome: 'asked' });
    const enqueue = () => requestRefresh(queue, job);
    if (!wait) {
      await enqueue();
      return undefined;
    }
    const outcome = await waiter.enqueueAndWait(enqueue, options.waitMs);
    // The worker holds asks back before it marks the job failed: the hold is there to read.
    if (outcome === 'failed') return (await refreshHoldMs(redis, job)) || undefined;
    return undefined;
  };
}
