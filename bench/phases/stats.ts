/**
 * The stats stampede: 200 simultaneous requests for one username nobody has asked for, with the
 * upstream answering accounts after a fixed latency. The real worker process runs the job; the
 * simulator counts the upstream calls. Repeated (settings.burst.repeats), each burst for another
 * uncached username, so the latency target is judged on the median burst and its interval: one
 * burst on two shared cores is one scheduler's mood.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { keys } from '../../shared/keyspace.js';
import { queueBaseOptions, REFRESH_QUEUE, STATS_QUEUE, type StatsJobData } from '../../shared/queues.js';
import { allOutput, startNode } from '../lib/processes.js';
import type { Settings } from '../lib/settings.js';
import { startWorkerProcess, type AppProcess, type Stack } from '../lib/stack.js';
import type { BurstResult } from '../lib/types.js';

/** One burst of `requests` simultaneous requests for `username`. */
export interface StatsBurst {
  username: string;
  upstreamCalls: number;
  burst: BurstResult;
  /**
   * When, after the burst was fired, the API added the job, the worker took it, the upstream
   * saw the call and the worker finished the job (ms; null if unseen). The first two come from
   * BullMQ's job record (the clocks of the API and the worker processes, on this machine).
   */
  timeline: { jobAddedMs: number | null; jobStartedMs: number | null; upstreamCalledMs: number | null; jobCompletedMs: number | null };
}

export interface StatsOutcome {
  requests: number;
  upstreamLatencyMs: number;
  bursts: StatsBurst[];
}

/** A fresh worker refreshes every snapshot at once; the burst waits until it is idle again. */
async function waitForIdleWorker(redisUrl: string, timeoutMs = 180_000): Promise<void> {
  const queue = new Queue(REFRESH_QUEUE, {
    ...queueBaseOptions(),
    connection: new Redis(redisUrl, { protocol: 2, maxRetriesPerRequest: null }),
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const counts = await queue.getJobCounts('active', 'waiting', 'prioritized', 'completed', 'failed');
      const busy = (counts.active ?? 0) + (counts.waiting ?? 0) + (counts.prioritized ?? 0);
      if ((counts.failed ?? 0) > 0) throw new Error('a refresh job failed in the worker (see worker.log)');
      if (busy === 0 && (counts.completed ?? 0) >= 3) return;
      if (Date.now() > deadline) throw new Error('the worker did not finish its start-up refreshes in time');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await queue.close();
    await queue.disconnect();
  }
}

/** When the stats job for `username` was added and taken by a worker (epoch ms), from its BullMQ record. */
async function statsJobTimes(redisUrl: string, username: string): Promise<{ addedAt: number; startedAt: number | null } | null> {
  const queue = new Queue<StatsJobData>(STATS_QUEUE, {
    ...queueBaseOptions(),
    connection: new Redis(redisUrl, { protocol: 2, maxRetriesPerRequest: null }),
  });
  try {
    const job = (await queue.getJobs(['completed', 'failed', 'active'])).find((j) => j.data.username === username);
    return job ? { addedAt: job.timestamp, startedAt: job.processedOn ?? null } : null;
  } finally {
    await queue.close();
    await queue.disconnect();
  }
}

/** The worker's "job completed" line for the stats job (pino's `time` is ms since epoch). */
function jobCompletedAt(logFile: string, since: number): number | null {
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"fetch-stats"') || !line.includes('job completed')) continue;
    const entry = JSON.parse(line) as { time?: number };
    if (typeof entry.time === 'number' && entry.time >= since) return entry.time - since;
  }
  return null;
}

async function burstFor(stack: Stack, api: AppProcess, username: string, count: number, workDir: string): Promise<StatsBurst> {
  const redis = new Redis(stack.redis.url, { protocol: 2 });
  const cached = await redis.exists(keys.stats(username.toLowerCase()), keys.statsMiss(username.toLowerCase()));
  redis.disconnect();
  if (cached !== 0) throw new Error(`stats for ${username} are already in Redis: the burst would measure a hit`);

  stack.sim.resetStats();
  // The simulator lives here: watch its counter to see when the one upstream call arrives.
  let upstreamCalledAt: number | null = null;
  const watch = setInterval(() => {
    if (upstreamCalledAt === null && (stack.sim.stats()['/v1/accounts/:username'] ?? 0) > 0) upstreamCalledAt = Date.now();
  }, 1);
  const client = startNode('burst', {
    script: 'bench/clients/burst.ts',
    args: [JSON.stringify({ url: `${api.url}/api/market/stats/${username}`, warmUrl: `${api.url}/healthz`, count })],
    stdout: 'pipe',
  });
  const burst = JSON.parse(await allOutput(client)) as BurstResult;
  clearInterval(watch);
  const upstreamCalls = stack.sim.stats()['/v1/accounts/:username'] ?? 0;

  const failed = burst.statuses.filter((status) => status !== 200);
  if (failed.length > 0)
    throw new Error(`stats burst: ${failed.length} of ${count} answers were not 200 (${[...new Set(failed)].join(', ')})`);
  const job = await statsJobTimes(stack.redis.url, username.toLowerCase());
  const since = (epochMs: number | null | undefined) => (epochMs == null ? null : epochMs - burst.startedAtEpochMs);
  const timeline = {
    jobAddedMs: since(job?.addedAt),
    jobStartedMs: since(job?.startedAt),
    upstreamCalledMs: upstreamCalledAt === null ? null : upstreamCalledAt - burst.startedAtEpochMs,
    jobCompletedMs: jobCompletedAt(join(workDir, 'worker.log'), burst.startedAtEpochMs),
  };
  return { username, upstreamCalls, burst, timeline };
}

export async function measureStats(stack: Stack, api: AppProcess, settings: Settings, workDir: string): Promise<StatsOutcome> {
  const worker = startWorkerProcess(stack, workDir);
  try {
    await Promise.race([worker.died, waitForIdleWorker(stack.redis.url)]);
    // The API reloads the refreshed snapshots on the announcement; let that settle.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const { count, upstreamLatencyMs, repeats } = settings.burst;
    const usernames = stack.uncachedUsernames.slice(0, repeats);
    if (usernames.length < repeats) throw new Error(`the simulator tracks too few accounts for ${repeats} bursts`);
    stack.sim.setFaults({ latencyMs: upstreamLatencyMs, paths: ['/v1/accounts/'] });
    const bursts: StatsBurst[] = [];
    try {
      for (const username of usernames) bursts.push(await burstFor(stack, api, username, count, workDir));
    } finally {
      stack.sim.clearFaults();
    }
    return { requests: count, upstreamLatencyMs, bursts };
  } finally {
    await worker.stop(10_000);
  }
}
