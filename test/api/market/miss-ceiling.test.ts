/**
 * Issue 38 item 4 through real HTTP, a real Redis, the worker and the index simulator: what every
 * client's stats misses together may cost, whatever addresses they come from.
 */
import { expect } from 'chai';
import type { Queue } from 'bullmq';
import { keys } from '../../../shared/keyspace.js';
import { requestStats, STATS_QUEUE, type StatsJobData } from '../../../shared/queues.js';
import { http } from '../../support/http.js';
import { startStack, whenReady, type Stack } from '../../support/stack.js';

/** One request from its own IPv4 address (TRUST_PROXY: the proxy's X-Forwarded-For names it). */
const from = (stack: Stack, username: string, n: number) =>
  http(`${stack.apiUrl}/api/market/stats/${username}`, {
    headers: { 'X-Forwarded-For': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
  });

describe('stats misses of every client together (STATS_MISS_CEILING, STATS_QUEUE_MAX)', () => {
  describe('the ceiling per minute', () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack({ env: { TRUST_PROXY: 'true', STATS_MISS_CEILING: '5', STATS_QUEUE_MAX: '1000' } });
      await whenReady(stack);
    });
    after(() => stack.close());

    it('when unknown usernames come from as many addresses, then the upstream sees at most the ceiling; the rest are 503 with Retry-After at once; a cached username is still served', async () => {
      const known = stack.sim.trackedUsernames()[0]!;
      expect((await from(stack, known, 0)).status).to.equal(200);
      await stack.redis.del(keys.statsMissCeiling());
      stack.sim.resetStats();

      const answers = [];
      for (let n = 1; n <= 12; n += 1) {
        const sent = Date.now();
        const res = await from(stack, `nb${n}x${Date.now() % 1_000_000}`, n);
        answers.push({ status: res.status, ms: Date.now() - sent, retryAfter: res.headers.get('retry-after'), json: res.json });
      }
      const passed = answers.filter((answer) => answer.status === 404);
      const refused = answers.filter((answer) => answer.status === 503);
      expect(passed.length).to.equal(5);
      expect(passed.length + refused.length).to.equal(12);
      for (const answer of refused) {
        expect(answer.json).to.deep.equal({ error: 'Upstream unavailable' });
        expect(Number(answer.retryAfter)).to.be.within(1, 60);
        expect(answer.ms, 'answered at once, not after the 9 s wait').to.be.below(1000);
      }
      expect(stack.sim.stats()['/v1/accounts/:username']).to.equal(passed.length);
      expect((await from(stack, known, 99)).status, 'a cached username').to.equal(200);
    });
  });

  describe('the queue bound', () => {
    let stack: Stack;
    let queue: Queue<StatsJobData>;
    before(async () => {
      // No worker: the jobs queued stay queued.
      stack = await startStack({ workers: 0, env: { TRUST_PROXY: 'true', STATS_QUEUE_MAX: '3' } });
      queue = stack.queue<StatsJobData>(STATS_QUEUE);
    });
    after(async () => {
      await queue.close();
      await stack.close();
    });

    it('when STATS_QUEUE_MAX lookups already wait, then a miss is 503 with Retry-After at once and adds no job', async () => {
      for (const name of ['waiting_a', 'waiting_b', 'waiting_c']) await requestStats(queue, name);
      const sent = Date.now();
      const res = await from(stack, 'one_more', 1);
      expect(res.status).to.equal(503);
      expect(res.json).to.deep.equal({ error: 'Upstream unavailable' });
      expect(Number(res.headers.get('retry-after'))).to.be.at.least(1);
      expect(Date.now() - sent).to.be.below(1000);
      expect(await queue.count()).to.equal(3);
    });
  });
});
