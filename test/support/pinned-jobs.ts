/** The worker's real job functions run from a test at pinned times (history and events need increasing cachedAt). */
import type { Redis } from 'ioredis';
import { createIndexClient } from '../../apps/worker/src/providers/index-client.js';
import type { Job } from 'bullmq';
import { handlers } from '../../apps/worker/src/jobs/handlers.js';
import { createJobContext } from '../../apps/worker/src/jobs/create-job-context.js';
import type { JobContext } from '../../apps/worker/src/jobs/job-context.js';
import { refreshNews } from '../../apps/worker/src/jobs/refresh-news.js';
import { refreshList } from '../../apps/worker/src/jobs/refresh-list.js';
import { createLogger } from '../../shared/logger.js';
import { createRedis, type RedisConfig } from '../../shared/redis.js';
import type { ListKind, RefreshJobName } from '../../shared/snapshot-kinds.js';

export interface PinnedJobs {
  context: JobContext;
  /** Runs one refresh job with cachedAt = atMs. */
  run(job: ListKind | 'news', atMs: number): Promise<void>;
  /** Runs a refresh job of the table by its name, with its worker handler, with cachedAt = atMs. */
  runJob(job: RefreshJobName, atMs: number): Promise<void>;
  close(): Promise<void>;
}

export function pinnedJobs(redisConfig: RedisConfig, simUrl: string): PinnedJobs {
  let clock = Date.now();
  const redis: Redis = createRedis(redisConfig, 'worker', 'test-pinned-jobs');
  const context = createJobContext({
    redis,
    provider: createIndexClient({ baseUrl: simUrl, apiKey: undefined }),
    logger: createLogger({ logLevel: 'silent' }, 'test'),
    now: () => new Date(clock),
    historyMs: 30 * 86_400_000,
  });
  return {
    context,
    async run(job, atMs) {
      clock = atMs;
      await (job === 'news' ? refreshNews(context) : refreshList(context, job));
    },
    async runJob(job, atMs) {
      const handler = handlers[job];
      if (!handler) throw new Error(`no handler for ${job}`);
      clock = atMs;
      // A refresh handler reads nothing of its job: every refresh takes no data (RefreshJobData).
      await handler({ name: job, data: {} } as Job, context);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
