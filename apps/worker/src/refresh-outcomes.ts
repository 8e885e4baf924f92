/**
 * What a refresh job's end means beyond the job (docs/decisions.md#d14): every attempt is
 * counted per job (`market_refresh_attempts_total`); a final failure (no attempt left, or not
 * retryable) holds the reads' asks back for a doubling delay (shared/refresh-backoff.ts),
 * written before BullMQ marks the job failed, so an API waiting for the job finds the hold
 * when it hears of the failure; a success lifts it.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { keys } from '../../../shared/keyspace.js';
import type { Logger } from '../../../shared/logger.js';
import { REFRESH_JOBS, type RefreshJobName } from '../../../shared/queues.js';
import { waitForReplicas } from '../../../shared/redis.js';
import { clearRefreshBackoff, recordRefreshFailure } from '../../../shared/refresh-backoff.js';
import type { CountFn } from './counters.js';
import { storeFetched } from './jobs/store-fetched.js';

export interface RefreshOutcomeOptions {
  redis: Redis;
  logger: Logger;
  count: CountFn;
  /** The first delay after a failure (REFRESH_BACKOFF_FIRST_MS). */
  firstBackoffMs: number;
  /** The longest delay: the job's schedule interval. */
  intervalMs: (job: RefreshJobName) => number;
}

const isRefreshJob = (name: string): name is RefreshJobName => (REFRESH_JOBS as readonly string[]).includes(name);

/** What a run handed out again returns (claimAttempt, markStored): it did not fetch. */
export interface RunSkipped {
  skipped: 'handed out twice' | 'stored already';
}

/** How long a stats lookup stays marked stored: its retry or takeover comes within seconds (its lock is 5 s). */
const LOOKUP_STORED_MS = 10 * 60_000;

/**
 * Runs a job; a job whose run stored what it fetched is never run again (markStored). When it is a
 * refresh, claims its attempt first (claimAttempt), counts it and keeps its backoff. Rethrows what
 * `run` threw.
 */
export function refreshOutcomes(options: RefreshOutcomeOptions): <T>(job: Job, run: () => Promise<T>) => Promise<T | RunSkipped> {
  const { redis, logger, count } = options;
  return async (job, run) => {
    const name = job.name;
    // Only a job handed out before can have stored a run: a first hand-out (every lookup but a retried one) skips the read.
    if (job.attemptsStarted > 1 && (await redis.exists(keys.jobStored(job.queueName, String(job.id)))) === 1) {
      logger.warn({ job: name, id: job.id, attempt: job.attemptsStarted }, `${name}: this job already stored its run; not fetching again`);
      return { skipped: 'stored already' };
    }
    if (!isRefreshJob(name)) {
      const result = await run();
      await markStored(redis, job, LOOKUP_STORED_MS, logger);
      return result;
    }
    const ttlMs = 2 * options.intervalMs(name);
    if (!(await claimAttempt(redis, job, ttlMs, logger))) return { skipped: 'handed out twice' };
    let result;
    try {
      result = await run();
    } catch (error) {
      count('refresh', name, 'failed');
      const final = error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (final) {
        // Best effort: a Redis that refuses this refuses the asks too.
        const held = await recordRefreshFailure(redis, name, options.firstBackoffMs, options.intervalMs(name)).catch(() => undefined);
        if (held) {
          logger.warn(
            { job: name, failures: held.failures, holdSeconds: held.delayMs / 1000 },
            `${name} failed (${held.failures} in a row): reads will not ask for it again for ${Math.ceil(held.delayMs / 1000)} s`,
          );
        }
      }
      throw error;
    }
    await markStored(redis, job, ttlMs, logger);
    count('refresh', name, 'ok');
    await clearRefreshBackoff(redis, name).catch(() => {});
    return result;
  };
}

/**
 * Marks a job's run stored, before BullMQ is told the job completed. Telling it is a write
 * that can fail on its own: a Cluster failover answers CLUSTERDOWN for longer than the client
 * retries. BullMQ then fails the job, or leaves it to stall, and runs it again as a new attempt,
 * which would fetch: a second paid call, and for a refresh a second run in one period. The mark
 * stops that run before it fetches. Retried while Redis is away (storeFetched); a mark still
 * refused after that is logged, and the job completes unmarked rather than failing and fetching again.
 */
async function markStored(redis: Redis, job: Pick<Job, 'id' | 'name' | 'queueName'>, ttlMs: number, logger: Logger): Promise<void> {
  await storeFetched(() => redis.set(keys.jobStored(job.queueName, String(job.id)), '1', 'PX', ttlMs)).catch((error: unknown) =>
    logger.warn({ job: job.name, err: error instanceof Error ? error.message : String(error) }, 'job not marked stored'),
  );
}

/** How long the replicas may take to confirm before the run goes ahead anyway. */
const CONFIRM_WITHIN_MS = 1000;

/**
 * A refresh makes its start durable before it pays for the upstream call. Replication is
 * asynchronous: a master that dies can take its last writes with it, the job's start among them,
 * and the promoted replica then hands the same run out again: a second paid call in one period.
 * So a run first claims its attempt (a key in BullMQ's slot, written after the job's start), then
 * waits until the replicas hold the claim, and with it everything written before it (WAIT). A run
 * that finds its attempt already claimed has been handed out twice: false, it ends without fetching.
 */
export async function claimAttempt(
  redis: Redis,
  job: Pick<Job, 'id' | 'name' | 'attemptsStarted'>,
  ttlMs: number,
  logger: Logger,
): Promise<boolean> {
  // attemptsStarted counts BullMQ's hand-outs: a retry, or a stalled job taken over from a dead
  // worker, is a new attempt (and fetches); the same hand-out replayed after a failover is not.
  const key = keys.refreshClaim(String(job.id), job.attemptsStarted);
  if ((await redis.set(key, '1', 'PX', ttlMs, 'NX')) === null) {
    logger.warn(
      { job: job.name, id: job.id, attempt: job.attemptsStarted },
      `${job.name}: this run was handed out twice; not fetching again`,
    );
    return false;
  }
  // A replica that cannot confirm in time does not stop refreshes: the run goes ahead unclaimed rather than not at all.
  await waitForReplicas(redis, CONFIRM_WITHIN_MS).catch((error: unknown) =>
    logger.warn(
      { job: job.name, err: error instanceof Error ? error.message : String(error) },
      'refresh claim not confirmed by the replicas',
    ),
  );
  return true;
}
