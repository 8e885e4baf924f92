/**
 * The worker process's machinery, separate from main() so tests can run several in one
 * process: two BullMQ workers (scheduled refreshes, on-demand stats) over one job context.
 */
import { Queue, UnrecoverableError, Worker, type Job, type MinimalJob } from 'bullmq';
import type { Config } from '../../../shared/config.js';
import type { Logger } from '../../../shared/logger.js';
import {
  queueBaseOptions,
  REFRESH_QUEUE,
  STATS_QUEUE,
  UPSTREAM_BACKOFF,
  type RefreshJobData,
} from '../../../shared/queues.js';
import { createRedis } from '../../../shared/redis.js';
import { countedIndexClient, redisCounter } from './counters.js';
import type { IndexClient } from './index-client.js';
import { assertEveryJobHasHandler, handlers } from './jobs/handlers.js';
import type { JobContext } from './jobs/job-context.js';
import { ensureSchedules } from './schedules.js';
import { UpstreamError } from './upstream-error.js';

export interface WorkerOptions {
  redis: Pick<Config, 'redisUrl' | 'redisTlsInsecure'>;
  index: IndexClient;
  logger: Logger;
  now?: () => Date;
  /** Parallel on-demand stats fetches per process. Default 20. */
  statsConcurrency?: number;
}

export interface RunningWorker {
  /** Stops taking jobs, lets active ones finish for up to `graceMs`, then closes everything. */
  close(graceMs?: number): Promise<void>;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  assertEveryJobHasHandler();
  const { logger } = options;
  const redis = createRedis(options.redis, 'worker', 'worker');
  const count = redisCounter(redis);
  const index = countedIndexClient(options.index, count);
  const context: JobContext = { redis, index, logger, now: options.now ?? (() => new Date()) };

  const process = async (job: Job): Promise<unknown> => {
    const handler = handlers[job.name];
    if (!handler) throw new UnrecoverableError(`no handler for job ${job.name}`);
    try {
      return await handler(job, context);
    } catch (error) {
      if (error instanceof UpstreamError && !error.retryable) throw new UnrecoverableError(error.message);
      throw error;
    }
  };
  const settings = { backoffStrategy: upstreamBackoff };
  const workers = [
    new Worker(REFRESH_QUEUE, process, {
      ...queueBaseOptions,
      connection: createRedis(options.redis, 'blocking', 'worker-refresh'),
      concurrency: 3,
      settings,
    }),
    new Worker(STATS_QUEUE, process, {
      ...queueBaseOptions,
      connection: createRedis(options.redis, 'blocking', 'worker-stats'),
      concurrency: options.statsConcurrency ?? 20,
      settings,
    }),
  ];
  for (const worker of workers) {
    worker.on('completed', (job, result) => {
      count('jobs', worker.name, 'completed');
      logger.info({ job: job.name, id: job.id, result }, 'job completed');
    });
    worker.on('failed', (job, error) => {
      count('jobs', worker.name, 'failed');
      logger.warn({ job: job?.name, id: job?.id, attempt: job?.attemptsMade, err: error.message }, 'job failed');
    });
    worker.on('error', (error) => logger.error({ err: error.message }, 'worker error'));
  }

  const refreshQueue = new Queue<RefreshJobData>(REFRESH_QUEUE, {
    ...queueBaseOptions,
    connection: createRedis(options.redis, 'worker', 'worker-scheduler'),
  });
  refreshQueue.on('error', (error) => logger.error({ err: error.message }, 'queue error'));
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  await ensureSchedules(refreshQueue, redis);
  // A Redis that comes back empty (restarted without persistence, flushed) has lost the
  // schedulers too: re-upsert them on every reconnect; identical upserts add no run.
  redis.on('ready', () => {
    ensureSchedules(refreshQueue, redis).catch((error: unknown) =>
      logger.warn({ err: String(error) }, 'could not re-create the refresh schedules'),
    );
  });

  return {
    async close(graceMs = 20_000) {
      const graceful = Promise.all(workers.map((worker) => worker.close()));
      const timer = new Promise<'timeout'>((resolve) => setTimeout(resolve, graceMs, 'timeout').unref());
      if ((await Promise.race([graceful, timer])) === 'timeout') {
        logger.warn('active jobs did not finish in time; handing them back');
        await Promise.all(workers.map((worker) => worker.close(true)));
      }
      await refreshQueue.close();
      await Promise.all(workers.map((worker) => worker.disconnect()));
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Exponential from the job's configured delay, but never sooner than the upstream's Retry-After. */
function upstreamBackoff(attemptsMade: number, type?: string, error?: Error, job?: MinimalJob): number {
  const backoff = job?.opts.backoff;
  const base = typeof backoff === 'object' && backoff.delay ? backoff.delay : 1000;
  const exponential = base * 2 ** Math.max(0, attemptsMade - 1);
  if (type !== UPSTREAM_BACKOFF) return exponential;
  const retryAfter = error instanceof UpstreamError ? (error.retryAfterMs ?? 0) : 0;
  return Math.max(exponential, retryAfter);
}
