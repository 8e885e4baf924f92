import { expect } from 'chai';
import { keys } from '../../shared/keyspace.js';
import { http } from '../support/http.js';
import { eventually, startStack, whenReady, type Stack } from '../support/stack.js';

describe('on-demand stats', () => {
  let stack: Stack;

  before(async () => {
    stack = await startStack();
    // Lookups wait on the worker: beside the stack's first refreshes one can outwait its 3 s account timeout.
    await whenReady(stack);
  });
  after(() => stack.close());

  it('when 200 clients ask at once for one uncached username, then one upstream call and 200 identical answers', async () => {
    const username = stack.sim.trackedUsernames()[3]!;
    stack.sim.setFaults({ latencyMs: 300 });
    stack.sim.resetStats();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => http(`${stack.apiUrl}/api/market/stats/${i % 2 ? username.toLowerCase() : `@${username}`}`)),
    );
    stack.sim.clearFaults();
    expect(answers.map((a) => a.status)).to.deep.equal(Array(200).fill(200));
    expect(new Set(answers.map((a) => a.body.toString())).size).to.equal(1);
    expect(stack.sim.stats()['/v1/accounts/:username']).to.equal(1);
  });

  it('stores a found username for one hour and a missing one for ten minutes', async () => {
    const username = stack.sim.trackedUsernames()[11]!;
    expect((await http(`${stack.apiUrl}/api/market/stats/${username}`)).status).to.equal(200);
    expect(await stack.redis.ttl(keys.stats(username.toLowerCase()))).to.be.within(3595, 3600);
    expect((await http(`${stack.apiUrl}/api/market/stats/not_a_member`)).status).to.equal(404);
    expect(await stack.redis.ttl(keys.statsMiss('not_a_member'))).to.be.within(595, 600);
  });

  it('when the cached entry expires, then the next read fetches it again', async () => {
    const username = stack.sim.trackedUsernames()[12]!;
    const first = (await http(`${stack.apiUrl}/api/market/stats/${username}`)).json as { cachedAt: string };
    await stack.redis.del(keys.stats(username.toLowerCase()));
    stack.sim.resetStats();
    // The API may serve the copy it holds in memory for up to 1 s more; then it must refetch.
    const second = await eventually(async () => {
      const res = await http(`${stack.apiUrl}/api/market/stats/${username}`);
      const json = res.json as { cachedAt: string };
      return res.status === 200 && json.cachedAt !== first.cachedAt ? json : undefined;
    });
    expect(stack.sim.stats()['/v1/accounts/:username']).to.equal(1);
    expect(Date.parse(second.cachedAt)).to.be.greaterThan(Date.parse(first.cachedAt));
  });

  it('when the upstream is down and nothing is cached, then 503 Upstream unavailable with Retry-After within 10 s', async () => {
    stack.sim.setFaults({ errorRate: 1 });
    const started = Date.now();
    const res = await http(`${stack.apiUrl}/api/market/stats/${stack.sim.trackedUsernames()[20]!}`);
    stack.sim.clearFaults();
    expect(res.status).to.equal(503);
    expect(res.json).to.deep.equal({ error: 'Upstream unavailable' });
    expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
    expect(Date.now() - started).to.be.below(10_000);
  });

  it('when the upstream hangs, then 503 within 10 s too', async () => {
    stack.sim.setFaults({ hang: true });
    const started = Date.now();
    const res = await http(`${stack.apiUrl}/api/market/stats/${stack.sim.trackedUsernames()[21]!}`);
    stack.sim.clearFaults();
    expect(res.status).to.equal(503);
    expect(Date.now() - started).to.be.below(10_000);
  });
});
