/**
 * The worker process's machinery, separate from main() so tests can run several in one
 * process: two BullMQ workers (scheduled refreshes, on-demand stats) over one job context.
 */
import { Queue, UnrecoverableError, Worker, type Job, type MinimalJob } from 'bullmq';
import type { Logger } from '../../../shared/logger.js';
import {
  queueBaseOptions,
  REFRESH_EVERY_MS,
  REFRESH_QUEUE,
  STATS_QUEUE,
  UPSTREAM_BACKOFF,
  type RefreshJobData,
  type RefreshJobName,
} from '../../../shared/queues.js';
import { keys } from '../../../shared/keyspace.js';
import { REFRESH_BACKOFF_FIRST_MS } from '../../../shared/refresh-backoff.js';
import { closeRedis, createRedis, type RedisConfig } from '../../../shared/redis.js';
import { watchRedisPolicy, type PolicyWatch } from '../../../shared/redis-policy.js';
import { countedIndexClient, redisCounter } from './counters.js';
import type { MarketProvider } from './providers/market-provider.js';
import { withMeter, type Meter } from './providers/spend.js';
import { assertEveryJobHasHandler, handlers } from './jobs/handlers.js';
import { createJobContext } from './jobs/create-job-context.js';
import { refreshOutcomes } from './refresh-outcomes.js';
import { creditPaceHold } from './credit-pace.js';
import { keepSchedules } from './schedules.js';
import { UpstreamError } from './providers/upstream-error.js';
import type { AlertsConfig } from '../../../shared/alerts/alerts-config.js';
import type { Resolver } from '../../../shared/alerts/address-policy.js';
import { ALERT_DELIVERY_QUEUE, type DeliveryJobData } from '../../../shared/alerts/delivery-queue.js';
import { createAlertEvaluator } from './alerts/evaluator.js';
import { alertCounters } from './alerts/alert-counters.js';
import { startDeliveryWorker } from './alerts/delivery-worker.js';

import { DAY_MS } from '../../../shared/durations.js';
import { activeRefreshJobs } from '../../../shared/snapshot-kinds.js';
import { DEFAULT_WINDOW, type TrendingWindow } from '../../../shared/trending-windows.js';
import type { CallersConfig } from '../../../shared/callers/callers-config.js';

export interface WorkerOptions {
  redis: RedisConfig;
  /** The upstream boundary: the index client (INDEX_PROVIDER=index) or the composite providers (providers/create-provider.ts makes either). */
  provider: MarketProvider;
  /** Refresh jobs with their own interval (the Elfa credit budget); the others use refreshEveryMs. */
  refreshEveryMsByJob?: Partial<Record<RefreshJobName, number>>;
  logger: Logger;
  now?: () => Date;
  /** The refresh schedules' period (REFRESH_INTERVAL). Default 30 minutes. */
  refreshEveryMs?: number;
  /** Checks Redis's eviction policy and persistence on every connect (main() sets it). */
  redisPolicy?: PolicyWatch;
  /** Stats fetches per minute across all workers (INDEX_RATE_LIMIT). Default 600. */
  upstreamPerMinute?: number;
  /** History retention (HISTORY_DAYS); 0 for none. Default 30. */
  historyDays?: number;
  /** The first hold after a refresh failed for good, doubling up to its interval (docs/decisions.md#d14). Default 30 s. */
  refreshBackoffMs?: number;
  /** TRENDING_WINDOWS: the windowed lists scheduled besides the 24 h ones. Default only 24h. */
  trendingWindows?: readonly TrendingWindow[];
  /** Alert evaluation and webhook delivery (ALERTS_*, WORKER_ROLES); absent: neither. */
  alerts?: AlertsConfig;
  /** The resolver of webhook hosts; tests inject one. Default dns.lookup. */
  alertResolver?: Resolver;
  /** CALLS_*: what a call, a breakout and a hit are (docs/decisions.md#callers). Default DEFAULT_CALLERS. */
  callers?: CallersConfig;
}

export interface RunningWorker {
  /** Stops taking jobs, lets active ones finish for up to `graceMs`, then closes everything. */
  close(graceMs?: number): Promise<void>;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  assertEveryJobHasHandler();
  const { logger } = options;
  const redis = createRedis(options.redis, 'worker', 'worker', logger);
  if (options.redisPolicy) watchRedisPolicy(redis, logger, options.redisPolicy);
  const count = redisCounter(redis);
  const context = createJobContext({
    redis,
    provider: countedIndexClient(options.provider, count),
    logger,
    now: options.now ?? (() => new Date()),
    historyMs: (options.historyDays ?? 30) * DAY_MS,
    ...(options.callers ? { callers: options.callers } : {}),
  });
  const roles = options.alerts?.workerRoles ?? ['refresh', 'delivery'];
  const refreshRole = roles.includes('refresh');
  // Alerts: a producer for the firings' deliveries, and (WORKER_ROLES) the delivery worker.
  const { alerts } = options;
  const alertConnection = alerts ? createRedis(options.redis, 'worker', 'worker-alert-producer', logger) : undefined;
  const alertQueue =
    alertConnection && new Queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE, { ...queueBaseOptions(), connection: alertConnection });
  alertQueue?.on('error', (error) => logger.error({ err: error.message }, 'alert queue error'));
  if (alerts && alertQueue) {
    const { firing, dropped } = alertCounters(redis);
    const refreshIntervalMs = options.refreshEveryMs ?? 30 * 60_000;
    context.alerts = createAlertEvaluator({
      redis,
      deliveries: alertQueue,
      config: alerts,
      logger,
      refreshIntervalMs,
      countFiring: firing,
      countDropped: dropped,
      callers: context.callers,
    });
  }
  const deliveryConnection =
    alerts && roles.includes('delivery') ? createRedis(options.redis, 'blocking', 'worker-alert-delivery', logger) : undefined;
  const delivery =
    alerts && deliveryConnection
      ? startDeliveryWorker({ redis, connection: deliveryConnection, config: alerts, logger, resolve: options.alertResolver })
      : undefined;

  const refreshEveryMs = options.refreshEveryMs ?? REFRESH_EVERY_MS;
  const withOutcome = refreshOutcomes({
    redis,
    logger,
    count,
    firstBackoffMs: options.refreshBackoffMs ?? REFRESH_BACKOFF_FIRST_MS,
    intervalMs: (name) => options.refreshEveryMsByJob?.[name] ?? refreshEveryMs,
  });
  const runJob = async (job: Job): Promise<unknown> => {
    const handler = handlers[job.name];
    if (!handler) throw new UnrecoverableError(`no handler for job ${job.name}`);
    const held = await creditPaceHold(redis, job, options.refreshEveryMsByJob ?? {}, context.now());
    if (held) {
      logger.info({ job: job.name }, `${job.name}: asked-for run skipped: ${held}`);
      return { skipped: held };
    }
    // What the job spent at each provider: in its result (so its log line) and, failed or not, in the counters.
    const meter: Meter = { spend: {}, billed: false };
    const { spend } = meter;
    try {
      const result = await withMeter(meter, () => handler(job, context));
      if (Object.keys(spend).length === 0) return result;
      return typeof result === 'object' && result !== null ? { ...result, spend } : { result, spend };
    } catch (error) {
      if (error instanceof UpstreamError && !error.retryable) throw new UnrecoverableError(error.message);
      // A provider that bills was reached: another attempt would pay again, whatever failed after
      // (a 5xx, a timeout, Redis). The next scheduled refresh, or the client's next lookup, asks again.
      if (meter.billed && !(error instanceof UnrecoverableError)) {
        throw new UnrecoverableError(
          `${error instanceof Error ? error.message : String(error)} (not retried: a provider that bills was called)`,
        );
      }
      throw error;
    } finally {
      for (const [name, used] of Object.entries(spend)) {
        for (const unit of ['credits', 'posts', 'users'] as const) {
          const amount = used[unit] ?? 0;
          if (amount > 0) redis.hincrby(keys.workerCounters(), `provider_spend|${name}|${unit}`, amount).catch(() => {});
        }
      }
    }
  };
  const process = (job: Job): Promise<unknown> => withOutcome(job, () => runJob(job));
  const settings = { backoffStrategy: upstreamBackoff };
  // BullMQ leaves a connection it was handed open when it closes: close() closes them.
  const workerConnections = [
    createRedis(options.redis, 'blocking', 'worker-refresh', logger),
    createRedis(options.redis, 'blocking', 'worker-stats', logger),
  ] as const;
  const workers = refreshRole
    ? [
        new Worker(REFRESH_QUEUE, process, {
          ...queueBaseOptions(),
          connection: workerConnections[0],
          concurrency: 3,
          settings,
        }),
        new Worker(STATS_QUEUE, process, {
          ...queueBaseOptions(),
          connection: workerConnections[1],
          concurrency: 20, // parallel on-demand stats fetches per process
          // On-demand lookups are the upstream calls clients can multiply (the API's miss budget is
          // per address); this bounds them all together, and BullMQ keeps the count in Redis, so
          // it holds across every worker process. Scheduled refreshes are a few calls per 30 min.
          limiter: perMinute(options.upstreamPerMinute ?? 600),
          // A lookup takes a few seconds at most: a short lock (renewed every 2.5 s) lets another
          // worker take over the jobs of one that died (SIGKILL, lost host) within ~7 s, inside the
          // API's 9 s wait, not after BullMQ's 30-60 s. A lookup run twice only writes the same entry.
          lockDuration: 5_000,
          stalledInterval: 2_000,
          settings,
        }),
      ]
    : [];
  for (const worker of workers) {
    worker.on('completed', (job, result) => {
      count('jobs', worker.name, 'completed');
      // At debug: every refresh and stats fetch completes, many an hour; failures and slow answers are what info shows.
      logger.debug({ job: job.name, id: job.id, result }, 'job completed');
    });
    worker.on('failed', (job, error) => {
      count('jobs', worker.name, 'failed');
      logger.warn({ job: job?.name, id: job?.id, attempt: job?.attemptsMade, err: error.message }, 'job failed');
    });
    worker.on('error', (error) => logger.error({ err: error.message }, 'worker error'));
  }

  const schedulerRedis = createRedis(options.redis, 'worker', 'worker-scheduler', logger);
  const refreshQueue = new Queue<RefreshJobData>(REFRESH_QUEUE, { ...queueBaseOptions(), connection: schedulerRedis });
  refreshQueue.on('error', (error) => logger.error({ err: error.message }, 'queue error'));
  await Promise.all([...workers, ...(delivery ? [delivery.worker] : [])].map((worker) => worker.waitUntilReady()));
  const schedules = refreshRole
    ? keepSchedules(refreshQueue, redis, logger, {
        everyMs: refreshEveryMs,
        everyMsByJob: options.refreshEveryMsByJob ?? {},
        jobs: activeRefreshJobs(options.trendingWindows ?? [DEFAULT_WINDOW]),
      })
    : undefined;
  await schedules?.firstRound;

  return {
    async close(graceMs = 20_000) {
      const graceful = Promise.all([...workers.map((worker) => worker.close()), delivery?.close()]);
      const timer = new Promise<'timeout'>((resolve) => setTimeout(resolve, graceMs, 'timeout').unref());
      if ((await Promise.race([graceful, timer])) === 'timeout') {
        logger.warn('active jobs did not finish in time; handing them back');
        await Promise.all([...workers.map((worker) => worker.close(true)), delivery?.close(true)]);
      }
      schedules?.stop();
      await Promise.all([refreshQueue.close(), alertQueue?.close()]);
      // Closed here rather than by worker.disconnect(), which waits for an 'end' event that an
      // ioredis Cluster does not always emit (the worker's close hung on a cluster).
      const connections = [redis, schedulerRedis, ...workerConnections, alertConnection, deliveryConnection];
      await Promise.all(connections.filter((connection) => connection !== undefined).map(closeRedis));
    },
  };
}

/**
 * A per-minute rate as BullMQ's limiter window. Spread over seconds when it allows it, so
 * 600/min is 10 per second rather than a burst of 600 at the top of each minute.
 */
function perMinute(rate: number): { max: number; duration: number } {
  if (rate >= 60) return { max: Math.floor(rate / 60), duration: 1000 };
  return { max: 1, duration: Math.ceil(60_000 / rate) };
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
