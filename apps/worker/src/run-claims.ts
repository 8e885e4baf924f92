/**
 * A refresh makes its start durable before it pays for the upstream call. Replication is
 * asynchronous: a master that dies can take its last writes with it, the job's start among them,
 * and the promoted replica then hands the same run out again: a second paid call in one period.
 * So a run first claims its attempt (a key in BullMQ's slot, written after the job's start), then
 * waits until the replicas hold the claim, and with it everything written before it (WAIT). A run
 * that finds its attempt already claimed has been handed out twice: it ends without fetching.
 */
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { keys } from '../../../shared/keyspace.js';
import type { Logger } from '../../../shared/logger.js';
import { waitForReplicas } from '../../../shared/redis.js';

/** How long the replicas may take to confirm before the run goes ahead anyway. */
const CONFIRM_WITHIN_MS = 1000;

/** True when this run may fetch; false when this attempt of the job already ran. */
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
