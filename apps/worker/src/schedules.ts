import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { keys } from '../../../shared/keyspace.js';
import {
  REFRESH_EVERY_MS,
  REFRESH_JOBS,
  refreshJobOptions,
  requestRefresh,
  type RefreshJobData,
} from '../../../shared/queues.js';

/** The snapshot each refresh job writes first; its absence means the job must run now. */
const SNAPSHOT_OF = { 'refresh-trending': 'trending', 'refresh-news': 'news', 'refresh-trending-cas': 'trending-cas' } as const;

/**
 * Upserts the 30-minute schedulers. Upserts are atomic, so any number of workers starting
 * together make one schedule; identical options on a restart add no run. A scheduler that is
 * new runs at once; one that already existed while its snapshot is absent (Redis emptied,
 * first start after a crash) gets an immediate, deduplicated run.
 */
export async function ensureSchedules(queue: Queue<RefreshJobData>, redis: Redis): Promise<void> {
  for (const name of REFRESH_JOBS) {
    const existed = (await queue.getJobScheduler(name)) !== undefined;
    await queue.upsertJobScheduler(name, { every: REFRESH_EVERY_MS }, { name, data: {}, opts: refreshJobOptions });
    if (existed && (await redis.exists(keys.snapshot(SNAPSHOT_OF[name]))) === 0) {
      await requestRefresh(queue, name);
    }
  }
}
