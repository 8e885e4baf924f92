/** The worker's real job functions run from a test at pinned times (history and events need increasing cachedAt). */
import type { Redis } from 'ioredis';
import { createIndexClient } from '../../apps/worker/src/index-client.js';
import type { JobContext } from '../../apps/worker/src/jobs/job-context.js';
import { refreshNews } from '../../apps/worker/src/jobs/refresh-news.js';
import { refreshList } from '../../apps/worker/src/jobs/refresh-list.js';
import { createLogger } from '../../shared/logger.js';
import { createRedis, type RedisConfig } from '../../shared/redis.js';
import type { ListKind } from '../../shared/snapshot-kinds.js';

export interface PinnedJobs {
  context: JobContext;
  /** Runs one refresh job with cachedAt = atMs. */
  run(job: ListKind | 'news', atMs: number): Promise<void>;
  close(): Promise<void>;
}

export function pinnedJobs(redisConfig: RedisConfig, simUrl: string): PinnedJobs {
  let clock = Date.now();
  const redis: Redis = createRedis(redisConfig, 'worker', 'test-pinned-jobs');
  const context: JobContext = {
    redis,
    index: createIndexClient({ baseUrl: simUrl, apiKey: undefined }),
    logger: createLogger({ logLevel: 'silent' }, 'test'),
    now: () => new Date(clock),
    historyMs: 30 * 86_400_000,
  };
  return {
    context,
    async run(job, atMs) {
      clock = atMs;
      await (job === 'news' ? refreshNews(context) : refreshList(context, job));
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
