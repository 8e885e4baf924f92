import { expect } from 'chai';
import type { Queue } from 'bullmq';
import type { Faults } from '../../apps/index-sim/src/server.js';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import { REFRESH_QUEUE, requestRefresh, type RefreshJobData } from '../../shared/queues.js';
import { http } from '../support/http.js';
import { eventually, startStack, type Stack } from '../support/stack.js';
import { existing, getEach } from '../support/redis-keys.js';

const FAULTS: Record<string, Partial<Faults>> = {
  'errors (HTTP 500)': { errorRate: 1 },
  'rate limiting (429 with Retry-After)': { rateLimit: { retryAfter: 1 } },
  'malformed payloads': { malformed: true },
  'a hang': { hang: true },
};

describe('a failed refresh keeps the previous snapshot (docs/decisions.md#d8)', () => {
  for (const [name, faults] of Object.entries(FAULTS)) {
    describe(`when the upstream answers with ${name}`, () => {
      let stack: Stack;
      let queue: Queue<RefreshJobData>;

      before(async () => {
        stack = await startStack({ indexTimeouts: { listTimeoutMs: 500 } });
        queue = stack.queue<RefreshJobData>(REFRESH_QUEUE);
        // The first news refresh scores a thousand posts: seconds on a busy machine.
        await eventually(
          async () =>
            (await existing(stack.redis, [snapshotKeys.snapshot('trending'), snapshotKeys.snapshot('news')])) === 2 ? true : undefined,
          30_000,
          'the first snapshots',
        );
      });
      after(async () => {
        await queue.close();
        await stack.close();
      });

      it('then the stored snapshots, their cachedAt and the served bytes stay as they were', async () => {
        const before = await getEach(stack.redis, [
          snapshotKeys.snapshot('trending'),
          snapshotKeys.snapshot('news'),
          snapshotKeys.snapshot('sentiment'),
        ]);
        const served = (await http(`${stack.apiUrl}/api/market/trending`)).body;
        stack.sim.setFaults(faults);
        stack.sim.resetStats();
        stack.sim.advanceClock(30 * 60_000);
        await requestRefresh(queue, 'refresh-trending');
        await requestRefresh(queue, 'refresh-news');
        await eventually(() => {
          const calls = stack.sim.stats();
          return (calls['/v1/trending/tokens'] ?? 0) >= 1 && (calls['/v1/posts'] ?? 0) >= 1 ? true : undefined;
        });
        // Both refreshes have finished their attempt, failed, and wait to retry: whatever they would write is written.
        await eventually(
          async () => {
            const failed = (await queue.getJobs(['delayed', 'failed'])).filter((job) => job.attemptsMade >= 1 && job.failedReason);
            return ['refresh-trending', 'refresh-news'].every((name) => failed.some((job) => job.name === name)) ? true : undefined;
          },
          15_000,
          'both refreshes to fail an attempt',
        );
        expect(
          await getEach(stack.redis, [
            snapshotKeys.snapshot('trending'),
            snapshotKeys.snapshot('news'),
            snapshotKeys.snapshot('sentiment'),
          ]),
        ).to.deep.equal(before);
        const servedDuring = (await http(`${stack.apiUrl}/api/market/trending`)).body;
        expect(servedDuring.equals(served)).to.equal(true);

        // Once the upstream heals, the retry (BullMQ backoff) brings a newer snapshot.
        stack.sim.clearFaults();
        await queue.promoteJobs();
        const after = await eventually(
          async () => {
            const body = await stack.redis.get(snapshotKeys.snapshot('trending'));
            return body !== before[0] ? body : undefined;
          },
          15_000,
          'a successful retry',
        );
        expect(Date.parse((JSON.parse(after!) as { cachedAt: string }).cachedAt)).to.be.greaterThan(
          Date.parse((JSON.parse(before[0]!) as { cachedAt: string }).cachedAt),
        );
      });
    });
  }
});
