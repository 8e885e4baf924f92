/**
 * POST /api/admin/refresh's asks: each refresh job starts at most one run per
 * FORCED_REFRESH_SPACING_MS, however many ask; the first ask in a window reserves it (SET NX PX).
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { refreshSlotKeys } from '../../../../shared/keyspace.js';
import {
  FORCED_REFRESH_SPACING_MS,
  REFRESH_JOBS,
  requestRefresh,
  type RefreshJobData,
  type RefreshJobName,
} from '../../../../shared/queues.js';

export interface ForcedRefreshOutcome {
  /** Jobs this ask started a run of. */
  requested: RefreshJobName[];
  /** Jobs a run was asked for less than the spacing ago, with the ms before an ask starts another. */
  coalesced: { job: RefreshJobName; retryAfterMs: number }[];
}

export type ForceRefresh = () => Promise<ForcedRefreshOutcome>;

export function forcedRefresh(
  redis: Redis,
  queue: Queue<RefreshJobData>,
  spacingMs = FORCED_REFRESH_SPACING_MS,
  /** The jobs asked for: those of the configured TRENDING_WINDOWS (activeRefreshJobs). Default every job of the table. */
  jobs: readonly RefreshJobName[] = REFRESH_JOBS,
): ForceRefresh {
  return async () => {
    const outcome: ForcedRefreshOutcome = { requested: [], coalesced: [] };
    await Promise.all(
      jobs.map(async (job) => {
        const key = refreshSlotKeys.forcedAsk(job);
        if ((await redis.set(key, String(Date.now()), 'PX', spacingMs, 'NX')) === 'OK') {
          try {
            await requestRefresh(queue, job);
          } catch (error) {
            // Not enqueued: the next ask may try again at once.
            await redis.del(key).catch(() => {});
            throw error;
          }
          outcome.requested.push(job);
        } else {
          const left = await redis.pttl(key);
          outcome.coalesced.push({ job, retryAfterMs: left > 0 ? left : spacingMs });
        }
      }),
    );
    // REFRESH_JOBS' order, whichever answered first.
    const order = (job: RefreshJobName) => jobs.indexOf(job);
    outcome.requested.sort((a, b) => order(a) - order(b));
    outcome.coalesced.sort((a, b) => order(a.job) - order(b.job));
    return outcome;
  };
}
