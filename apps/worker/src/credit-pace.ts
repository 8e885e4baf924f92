/**
 * The Elfa credit budget holds against asked-for runs too: a refresh job with an interval of its
 * own (providers/elfa-budget.ts) runs between its scheduled runs only when its snapshot is absent
 * or older than that interval, so an admin's refresh never spends credits the schedule did not plan for.
 */
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { snapshotKeys } from '../../../shared/snapshot-keys.js';
import { FIRST_SNAPSHOT_OF, type RefreshJobName } from '../../../shared/snapshot-kinds.js';

/** Why `job` must not call its upstream now, or undefined when it may. */
export async function creditPaceHold(
  redis: Redis,
  job: Pick<Job, 'name' | 'repeatJobKey'>,
  intervalMsByJob: Partial<Record<RefreshJobName, number>>,
  now: Date,
): Promise<string | undefined> {
  const intervalMs = intervalMsByJob[job.name as RefreshJobName];
  // Scheduled runs are the budget's own; jobs without an interval of their own are not metered by it.
  if (intervalMs === undefined || job.repeatJobKey !== undefined) return undefined;
  const cachedAt = await redis.get(snapshotKeys.version(FIRST_SNAPSHOT_OF[job.name as RefreshJobName]));
  const ageMs = cachedAt ? now.getTime() - Date.parse(cachedAt) : Number.NaN;
  if (!(ageMs < intervalMs)) return undefined;
  return `the snapshot is ${Math.round(ageMs / 1000)} s old and the credit budget refreshes it every ${Math.round(intervalMs / 60_000)} min: no call before the next scheduled run`;
}
