import { isRedisUnavailable } from '../../../../shared/redis-errors.js';

/** How long a job holds what it fetched while Redis fails over (Sentinel or a managed Redis: seconds). */
export const STORE_WITHIN_MS = 20_000;
const PAUSE_MS = 250;

/**
 * Runs the Redis part of a job whose upstream call has been made. A Redis failover or restart
 * fails such writes for a few seconds; failing the job then would have BullMQ run it again and
 * fetch again: a second paid call, and a second scheduled run in one period. So the writes are
 * retried, never the fetch: while Redis is unavailable, every 250 ms, for up to `withinMs`. Any
 * other error, or Redis still away after that, fails the job. The writes it wraps are
 * idempotent (a refresh not newer than the stored one is refused; a stats entry is set again).
 */
export async function storeFetched<T>(write: () => Promise<T>, withinMs = STORE_WITHIN_MS): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (!isRedisUnavailable(error) || Date.now() + PAUSE_MS > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  }
}
