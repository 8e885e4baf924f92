/**
 * What every client's stats misses together may cost (issue 38 item 4). The per-client budgets
 * (miss-budget.ts) do not bound a proxy pool or an IPv6 /48; these two do, across every replica:
 * - a ceiling on misses sent to the worker per minute (STATS_MISS_CEILING), counted in Redis in
 *   fixed one-minute windows;
 * - a bound on the lookups waiting in the stats queue (STATS_QUEUE_MAX), so a miss that could
 *   only wait out the API's 9 s is not queued at all, and the queue cannot grow without end in a
 *   `noeviction` Redis.
 * Beyond either, the miss is answered 503 with Retry-After at once: no job, no wait, no upstream call.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { keys } from '../../../../shared/keyspace.js';
import { runScript } from '../../../../shared/redis-scripts.js';

const WINDOW_SECONDS = 60;
/** What a full queue asks clients to wait: about the time the worker needs to drain it. */
const QUEUE_FULL_RETRY_SECONDS = 5;

/** Resolves undefined when a miss may go to the worker, else the seconds to wait. */
export type AdmitMiss = () => Promise<number | undefined>;

export function missCeiling(redis: Redis, queue: Pick<Queue, 'count'>, options: { perMinute: number; maxWaiting: number }): AdmitMiss {
  return async () => {
    // The queue first: a miss refused for a full queue spends none of the minute's ceiling.
    if ((await queue.count()) >= options.maxWaiting) return QUEUE_FULL_RETRY_SECONDS;
    const [count, ttl] = (await runScript(redis, 'chargeMissBudget', [keys.statsMissCeiling()], [WINDOW_SECONDS])) as [number, number];
    if (count > options.perMinute) return ttl > 0 ? ttl : WINDOW_SECONDS;
    return undefined;
  };
}
