/**
 * What a refresh job's end means beyond the job (docs/decisions.md#d14): every attempt is
 * counted per job (`market_refresh_attempts_total`); a final failure (no attempt left, or not
 * retryable) holds the reads' asks back for a doubling delay (shared/refresh-backoff.ts),
 * written before BullMQ marks the job failed, so an API waiting for the job finds the hold
 * when it hears of the failure; a success lifts it.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from '../../../shared/logger.js';
import { REFRESH_JOBS, type RefreshJobName } from '../../../shared/queues.js';
import { clearRefreshBackoff, recordRefreshFailure } from '../../../shared/refresh-backoff.js';
import type { Redis } from 'ioredis';
import type { CountFn } from './counters.js';
import { claimAttempt } from './run-claims.js';

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

/** What a refresh run handed out twice returns (run-claims.ts): it did not fetch. */
export interface RunSkipped {
  skipped: 'handed out twice';
}

/**
 * Runs a job; when it is a refresh, claims its attempt first (run-claims.ts), counts it and keeps
 * its backoff. Rethrows what `run` threw.
 */
export function refreshOutcomes(options: RefreshOutcomeOptions): <T>(job: Job, run: () => Promise<T>) => Promise<T | RunSkipped> {
  const { redis, logger, count } = options;
  return async (job, run) => {
    const name = job.name;
    if (!isRefreshJob(name)) return run();
    if (!(await claimAttempt(redis, job, 2 * options.intervalMs(name), logger))) return { skipped: 'handed out twice' };
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
    count('refresh', name, 'ok');
    await clearRefreshBackoff(redis, name).catch(() => {});
    return result;
  };
}
