/**
 * The stats stampede: 200 simultaneous requests for one username nobody has asked for, with the
 * upstream answering accounts after a fixed latency. The real worker process runs the job; the
 * simulator counts the upstream calls.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { keys } from '../../shared/keyspace.js';
import { queueBaseOptions, REFRESH_QUEUE } from '../../shared/queues.js';
import { allOutput, startNode } from '../lib/processes.js';
import type { Settings } from '../lib/settings.js';
import { startWorkerProcess, type AppProcess, type Stack } from '../lib/stack.js';
import type { BurstResult } from '../lib/types.js';

export interface StatsOutcome {
  username: string;
  requests: number;
  upstreamLatencyMs: number;
  upstreamCalls: number;
  burst: BurstResult;
}

/** A fresh worker refreshes every snapshot at once; the burst waits until it is idle again. */
async function waitForIdleWorker(redisUrl: string, timeoutMs = 60_000): Promise<void> {
  const queue = new Queue(REFRESH_QUEUE, { ...queueBaseOptions, connection: new Redis(redisUrl, { protocol: 2, maxRetriesPerRequest: null }) });
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

export async function measureStats(stack: Stack, api: AppProcess, settings: Settings, workDir: string): Promise<StatsOutcome> {
  const worker = startWorkerProcess(stack, workDir);
  try {
    await Promise.race([worker.died, waitForIdleWorker(stack.redis.url)]);
    // The API reloads the refreshed snapshots on the announcement; let that settle.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const username = stack.uncachedUsername;
    const redis = new Redis(stack.redis.url, { protocol: 2 });
    const cached = await redis.exists(keys.stats(username.toLowerCase()), keys.statsMiss(username.toLowerCase()));
    redis.disconnect();
    if (cached !== 0) throw new Error(`stats for ${username} are already in Redis: the burst would measure a hit`);

    const { count, upstreamLatencyMs } = settings.burst;
    stack.sim.setFaults({ latencyMs: upstreamLatencyMs, paths: ['/v1/accounts/'] });
    stack.sim.resetStats();
    const client = startNode('burst', {
      script: 'bench/clients/burst.ts',
      args: [JSON.stringify({ url: `${api.url}/api/market/stats/${username}`, warmUrl: `${api.url}/healthz`, count })],
      stdout: 'pipe',
    });
    const burst = JSON.parse(await allOutput(client)) as BurstResult;
    const upstreamCalls = stack.sim.stats()['/v1/accounts/:username'] ?? 0;
    stack.sim.clearFaults();

    const failed = burst.statuses.filter((status) => status !== 200);
    if (failed.length > 0) throw new Error(`stats burst: ${failed.length} of ${count} answers were not 200 (${[...new Set(failed)].join(', ')})`);
    return { username, requests: count, upstreamLatencyMs, upstreamCalls, burst };
  } finally {
    await worker.stop(10_000);
  }
}
