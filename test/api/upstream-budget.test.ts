/**
 * Abuse of the upstream (docs/decisions.md#d12): a flood of unknown usernames once cost one upstream call
 * each. Now each client address has a budget of misses (429 with Retry-After and the IETF
 * draft's RateLimit fields), and the worker limits all upstream stats lookups together.
 */
import { expect } from 'chai';
import { STATS_MISS_BUDGET, STATS_MISS_WINDOW_SECONDS } from '../../apps/api/src/market/miss-budget.js';
import { http, type HttpAnswer } from '../support/http.js';
import { startStack, whenReady, type Stack } from '../support/stack.js';

const ACCOUNT_ROUTE = '/v1/accounts/:username';

async function inParallel<T>(count: number, lanes: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}

describe('the upstream budget', function () {
  this.timeout(60_000);

  describe('per client address, in the API', () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack();
      await whenReady(stack);
    });
    after(() => stack.close());

    it('when one client asks for 100 unique unknown usernames, then at most the budget reaches the upstream and the rest is 429 with RateLimit fields', async () => {
      const known = stack.sim.trackedUsernames()[3]!;
      const stats = (name: string): Promise<HttpAnswer> => http(`${stack.apiUrl}/api/market/stats/${name}`);
      expect((await stats(known)).status, 'a miss that finds the account').to.equal(200);
      stack.sim.resetStats();

      const flood = await inParallel(100, 8, (i) => stats(`nobody_${i}`));
      const upstreamCalls = stack.sim.stats()[ACCOUNT_ROUTE] ?? 0;
      console.log(`      flood: 100 unknown usernames -> ${upstreamCalls} upstream calls (budget ${STATS_MISS_BUDGET})`);
      expect(upstreamCalls).to.be.at.most(STATS_MISS_BUDGET - 1);
      const notFound = flood.filter((a) => a.status === 404);
      // The answers that spent a miss say what is left.
      const remaining = notFound.map((a) => Number(/;r=(\d+);/.exec(a.headers.get('ratelimit') ?? '')?.[1])).sort((a, b) => a - b);
      expect(remaining).to.deep.equal(Array.from({ length: STATS_MISS_BUDGET - 1 }, (_, i) => i));
      const refused = flood.filter((a) => a.status === 429);
      expect(notFound.length + refused.length).to.equal(100);
      expect(notFound.length).to.equal(STATS_MISS_BUDGET - 1);

      const one = refused[0]!;
      expect(one.json).to.deep.equal({ error: 'Too many requests' });
      const retryAfter = Number(one.headers.get('retry-after'));
      expect(retryAfter).to.be.within(1, STATS_MISS_WINDOW_SECONDS);
      expect(one.headers.get('ratelimit-policy')).to.equal(`"stats-misses";q=${STATS_MISS_BUDGET};w=${STATS_MISS_WINDOW_SECONDS}`);
      expect(one.headers.get('ratelimit')).to.equal(`"stats-misses";r=0;t=${retryAfter}`);

      // What costs the upstream nothing stays free: a cached hit, a remembered 404.
      expect((await stats(known)).status).to.equal(200);
      expect((await stats(`nobody_${flood.findIndex((a) => a.status === 404)}`)).status).to.equal(404);
      expect((await stats('nobody_else')).status, 'a new name is still refused').to.equal(429);
      expect(stack.sim.stats()[ACCOUNT_ROUTE] ?? 0).to.equal(upstreamCalls);
    });
  });

  describe('for all workers together (INDEX_RATE_LIMIT)', () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack({ env: { INDEX_RATE_LIMIT: '120' } });
      await whenReady(stack);
    });
    after(() => stack.close());

    it('when 8 uncached usernames are asked at once with a limit of 120/min, then the upstream sees at most 2 a second, and all are answered', async () => {
      const names = stack.sim.trackedUsernames().slice(10, 18);
      stack.sim.resetStats();
      const answers = await Promise.all(names.map((name) => http(`${stack.apiUrl}/api/market/stats/${name}`)));
      expect(answers.map((a) => a.status)).to.deep.equal(Array<number>(8).fill(200));
      expect(stack.sim.stats()[ACCOUNT_ROUTE]).to.equal(8);
      // Each answer's cachedAt is stamped right after its upstream call. At 2 a second, calls i
      // and i + 4 start at least 2 s apart; a slow machine only spreads them further, so the
      // bound allows a full second of one call's own latency and still fails an unlimited burst.
      const times = answers.map((a) => Date.parse((a.json as { cachedAt: string }).cachedAt)).sort((a, b) => a - b);
      for (let i = 0; i + 4 < times.length; i++) {
        expect(times[i + 4]! - times[i]!, `calls ${i + 1} to ${i + 5}`).to.be.at.least(1000);
      }
    });
  });
});
