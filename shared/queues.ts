/**
 * The queues, their job names and payloads, and the options every producer and scheduler
 * uses. Keeping them here makes scheduler options byte-identical across worker processes, so
 * re-upserting on restart adds no run.
 */
import type { DefaultJobOptions, Queue } from 'bullmq';
import { queuePrefix } from './keyspace.js';
import { REFRESH_JOBS, SNAPSHOT_KINDS, SNAPSHOTS, type RefreshJobName, type SnapshotName } from './snapshot-kinds.js';

/** Scheduled snapshot refreshes: slow, few. */
export const REFRESH_QUEUE = 'refresh';
/** On-demand per-username stats: fast, many; separate so a slow refresh never stalls them. */
export const STATS_QUEUE = 'stats';

/** The refresh jobs: one per entry of shared/snapshot-kinds.ts (news and sentiment share one). */
export { REFRESH_JOBS, type RefreshJobName };
export type RefreshJobData = Record<string, never>;

export const STATS_JOB = 'fetch-stats';
export interface StatsJobData {
  /** The normalised (lower-case, no `@`) username. */
  username: string;
}

/**
 * The least time between two runs an admin's POST /api/admin/refresh may start for one refresh
 * job (so for one list and its upstream call): asks within it join the run the first one started.
 */
export const FORCED_REFRESH_SPACING_MS = 10_000;

/** Every 30 minutes, the snapshots' cache lifetime. */
export const REFRESH_EVERY_MS = 30 * 60 * 1000;

/** Every queue's and worker's options: the prefix of the process's keyspace. */
export const queueBaseOptions = () => ({ prefix: queuePrefix() });

/** Our custom backoff: exponential, but never sooner than the upstream's Retry-After. */
export const UPSTREAM_BACKOFF = 'upstream';

export const refreshJobOptions: DefaultJobOptions = {
  attempts: 4,
  backoff: { type: UPSTREAM_BACKOFF, delay: 5000 },
  removeOnComplete: { age: 24 * 3600, count: 100 },
  removeOnFail: { age: 7 * 24 * 3600, count: 500 },
};

const statsJobOptions: DefaultJobOptions = {
  // Two quick attempts fit in the 10 s the API is willing to wait.
  attempts: 2,
  backoff: { type: UPSTREAM_BACKOFF, delay: 500 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 24 * 3600, count: 1000 },
};

/** Which refresh job rebuilds a snapshot (sentiment is computed with the news). */
export const refreshJobFor = Object.fromEntries(SNAPSHOTS.map((name) => [name, SNAPSHOT_KINDS[name].refreshJob])) as Readonly<
  Record<SnapshotName, RefreshJobName>
>;

/** Asks for an immediate refresh; while one is pending, further asks join it. Returns its job id. */
export async function requestRefresh(queue: Queue<RefreshJobData>, name: RefreshJobName): Promise<string> {
  const job = await queue.add(name, {}, { ...refreshJobOptions, deduplication: { id: name } });
  return String(job.id);
}

/** Asks for one username's stats; concurrent asks for the same username share one job. */
export async function requestStats(queue: Queue<StatsJobData>, username: string): Promise<string> {
  const job = await queue.add(STATS_JOB, { username }, { ...statsJobOptions, deduplication: { id: `stats:${username}` } });
  return String(job.id);
}
