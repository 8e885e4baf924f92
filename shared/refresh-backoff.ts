/**
 * The backoff of a refresh that keeps failing (docs/decisions.md#d14): once a refresh has failed
 * for good, no read asks for it again before a hold of 30 s, doubling up to the schedule's
 * interval. The hold is in Redis, so every replica and worker sees it, and its PTTL is the 503's
 * Retry-After (no clock of ours is compared with another's).
 */
import type { Redis } from 'ioredis';
import { refreshSlotKeys } from './keyspace.js';
import type { RefreshJobName } from './snapshot-kinds.js';
import { runScript } from './redis-scripts.js';

/** The first delay after a failed refresh. */
export const REFRESH_BACKOFF_FIRST_MS = 30_000;

export interface RefreshFailure {
  /** Failures in a row, this one included. */
  failures: number;
  /** How long reads will not ask for this refresh. */
  delayMs: number;
}

/** Counts a refresh job's final failure and holds the reads' asks back (the worker calls it before the job is marked failed). */
export async function recordRefreshFailure(redis: Redis, job: RefreshJobName, firstMs: number, longestMs: number): Promise<RefreshFailure> {
  // Never longer than the schedule's interval: the scheduled run comes by then anyway.
  const longest = Math.max(1, Math.round(longestMs));
  const first = Math.min(Math.max(1, Math.round(firstMs)), longest);
  const reply = (await runScript(
    redis,
    'recordRefreshFailure',
    [refreshSlotKeys.failures(job), refreshSlotKeys.hold(job)],
    [first, longest],
  )) as [number, number];
  return { failures: Number(reply[0]), delayMs: Number(reply[1]) };
}

/** A refresh succeeded: the next failure starts from the first delay again. */
export async function clearRefreshBackoff(redis: Redis, job: RefreshJobName): Promise<void> {
  await redis.del(refreshSlotKeys.failures(job), refreshSlotKeys.hold(job));
}

/** How long reads must still not ask for this refresh, in ms; 0 when they may. */
export async function refreshHoldMs(redis: Redis, job: RefreshJobName): Promise<number> {
  return Math.max(0, await redis.pttl(refreshSlotKeys.hold(job)));
}
