import type { Job } from 'bullmq';
import { REFRESH_JOBS, STATS_JOB, type RefreshJobName, type StatsJobData } from '../../../../shared/queues.js';
import { LIST_KINDS, SNAPSHOT_KINDS, type ListRefreshJob } from '../../../../shared/snapshot-kinds.js';
import { fetchStats } from './fetch-stats.js';
import type { JobContext } from './job-context.js';
import { refreshList } from './refresh-list.js';
import { refreshNews } from './refresh-news.js';

export type JobHandler = (job: Job, context: JobContext) => Promise<unknown>;

/** The refresh jobs of the list kinds (shared/reads.ts); news has its own, which also writes sentiment. */
const listRefreshes = Object.fromEntries(
  LIST_KINDS.map((name) => [SNAPSHOT_KINDS[name].refreshJob, (_job: Job, context: JobContext) => refreshList(context, name)]),
) as Record<ListRefreshJob, JobHandler>;

/** Every job the queues can carry, and what runs it: the type requires a handler per refresh job. */
const byJob: Readonly<Record<RefreshJobName | typeof STATS_JOB, JobHandler>> = {
  ...listRefreshes,
  'refresh-news': (_job, context) => refreshNews(context),
  [STATS_JOB]: (job, context) => fetchStats(job as Job<StatsJobData>, context),
};
export const handlers: Readonly<Record<string, JobHandler | undefined>> = byJob;

/** The worker refuses to start when a job name has no handler (the list kinds' are built at run time). */
export function assertEveryJobHasHandler(): void {
  const missing = [...REFRESH_JOBS, STATS_JOB].filter((name) => !handlers[name]);
  if (missing.length > 0) throw new Error(`no handler for job(s): ${missing.join(', ')}`);
}
