import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { snapshotKeys } from '../../../shared/snapshot-keys.js';
import { FIRST_SNAPSHOT_OF } from '../../../shared/snapshot-kinds.js';
import type { Logger } from '../../../shared/logger.js';
import { refreshHoldMs } from '../../../shared/refresh-backoff.js';
import { REFRESH_JOBS, refreshJobOptions, type RefreshJobName, requestRefresh, type RefreshJobData } from '../../../shared/queues.js';

const CHECK_EVERY_MS = 30_000;

export interface Schedule {
  /** REFRESH_INTERVAL. */
  everyMs: number;
  /** Jobs that run at their own interval (the Elfa credit budget). */
  everyMsByJob: Partial<Record<RefreshJobName, number>>;
  /** The refresh jobs to schedule (activeRefreshJobs of TRENDING_WINDOWS). */
  jobs: readonly RefreshJobName[];
}

/**
 * Upserts one scheduler per refresh job of shared/snapshot-kinds.ts. Upserts are atomic, so any
 * number of workers starting together make one schedule; identical options on a restart add no
 * run. A scheduler that is new runs at once; one that already existed while its snapshot is absent
 * (Redis emptied, first start after a crash) gets an immediate, deduplicated run, unless that
 * refresh just failed and its backoff holds asks back (docs/decisions.md#d14).
 */
async function ensureSchedules(queue: Queue<RefreshJobData>, redis: Redis, { everyMs, everyMsByJob, jobs }: Schedule): Promise<void> {
  // A window no longer configured (TRENDING_WINDOWS) loses its schedule.
  for (const scheduler of await queue.getJobSchedulers()) {
    const name = scheduler.key as RefreshJobName;
    if (REFRESH_JOBS.includes(name) && !jobs.includes(name)) await queue.removeJobScheduler(name);
  }
  for (const name of jobs) {
    const existed = (await queue.getJobScheduler(name)) !== undefined;
    await queue.upsertJobScheduler(name, { every: everyMsByJob[name] ?? everyMs }, { name, data: {}, opts: refreshJobOptions });
    // Pending first, then the snapshot: a run that ends between the two checks has written its snapshot by then.
    if (
      existed &&
      !(await runIsPending(queue, name)) &&
      (await redis.exists(snapshotKeys.snapshot(FIRST_SNAPSHOT_OF[name]))) === 0 &&
      (await refreshHoldMs(redis, name)) === 0
    ) {
      await requestRefresh(queue, name);
    }
  }
}

/**
 * Whether a run of `name` is already on its way (another worker's scheduler just started it),
 * so that workers starting together make one upstream call, not one each.
 */
async function runIsPending(queue: Queue<RefreshJobData>, name: string): Promise<boolean> {
  const soon = Date.now() + 60_000;
  const jobs = await queue.getJobs(['active', 'waiting', 'prioritized', 'delayed']);
  return jobs.some((job) => job.name === name && (job.delay === 0 || job.timestamp + job.delay <= soon));
}

export interface ScheduleKeeper {
  /** Settles (never rejects) once the first round has ended, well or not. */
  readonly firstRound: Promise<void>;
  stop(): void;
}

/**
 * Keeps the schedules in place for as long as the worker runs: at start, on every reconnect,
 * and every CHECK_EVERY_MS, since a FLUSHALL or an empty restart behind a connection that never
 * dropped erases them silently. A failure (Redis down, or refusing writes: OOM, READONLY) is
 * one log line, and the next round tries again; it never ends the process.
 */
export function keepSchedules(queue: Queue<RefreshJobData>, redis: Redis, logger: Logger, schedule: Schedule): ScheduleKeeper {
  let running: Promise<void> | undefined;
  const check = (): Promise<void> => {
    return (running ??= ensureSchedules(queue, redis, schedule)
      .catch((error: unknown) =>
        logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not ensure the refresh schedules; retrying'),
      )
      .finally(() => (running = undefined)));
  };
  const firstRound = check();
  const onReady = () => void check();
  // Reconnects only: the first connection's 'ready' would start a second round at once, and
  // workers starting together would then ask for a run the first round already made.
  void firstRound.then(() => redis.on('ready', onReady));
  const timer = setInterval(onReady, Math.min(CHECK_EVERY_MS, schedule.everyMs));
  return {
    firstRound,
    stop() {
      clearInterval(timer);
      redis.off('ready', onReady);
    },
  };
}
