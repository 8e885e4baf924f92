import type { Job } from 'bullmq';
import { REFRESH_JOBS, STATS_JOB, type StatsJobData } from '../../../../shared/queues.js';
import { fetchStats } from './fetch-stats.js';
import type { JobContext } from './job-context.js';
import { refreshNews } from './refresh-news.js';
import { refreshTrendingCas } from './refresh-trending-cas.js';
import { refreshTrending } from './refresh-trending.js';

export type JobHandler = (job: Job, context: JobContext) => Promise<unknown>;

/** Every job the queues can carry, and what runs it. */
export const handlers: Readonly<Record<string, JobHandler>> = {
  'refresh-trending': (_job, context) => refreshTrending(context),
  'refresh-news': (_job, context) => refreshNews(context),
  'refresh-trending-cas': (_job, context) => refreshTrendingCas(context),
  [STATS_JOB]: (job, context) => fetchStats(job as Job<StatsJobData>, context),
};

/** The worker refuses to start when a job name has no handler. */
export function assertEveryJobHasHandler(): void {
  const missing = [...REFRESH_JOBS, STATS_JOB].filter((name) => !handlers[name]);
  if (missing.length > 0) throw new Error(`no handler for job(s): ${missing.join(', ')}`);
}
