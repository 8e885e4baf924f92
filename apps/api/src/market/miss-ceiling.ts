/**
 * What every client's stats misses together may cost, which per-client budgets do not bound (a proxy
 * pool, an IPv6 /48): misses per minute (STATS_MISS_CEILING) and lookups queued (STATS_QUEUE_MAX: a miss
 * that could only wait out 9 s is not queued, nor does a `noeviction` Redis fill up). Beyond, 503 at once.
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
