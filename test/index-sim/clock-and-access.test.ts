import { expect } from 'chai';
import type { Simulator } from '../../apps/index-sim/src/server.js';
import { NOW, type PostsPage, allPosts, getOk, request, startAt } from './helpers.js';

const PATHS = ['/v1/trending/tokens', '/v1/trending/contracts', '/v1/posts?limit=50', '/v1/accounts/CryptoKoala'];

async function bodies(sim: Simulator): Promise<string[]> {
  return Promise.all(PATHS.map(async (path) => (await request(sim.url + path)).text));
}

describe('index simulator: determinism and clock', () => {
  const sims: Simulator[] = [];
  afterEach(async () => {
    await Promise.all(sims.splice(0).map((s) => s.close()));
  });
  async function start(options: Parameters<typeof startAt>[0] = {}): Promise<Simulator> {
    const sim = await startAt(options);
    sims.push(sim);
    return sim;
  }

  it('when two simulators share a seed and a clock, then they serve identical bodies', async () => {
    const [a, b, other] = await Promise.all([start(), start(), start({ seed: 7 })]);
    if (!a || !b || !other) throw new Error('simulators did not start');
    expect(await bodies(a)).to.deep.equal(await bodies(b));
    expect(a.trackedUsernames()).to.deep.equal(b.trackedUsernames());
    const [, , postsA] = await bodies(a);
    const [, , postsOther] = await bodies(other);
    expect(postsOther).to.not.equal(postsA);
  });

  it('when the clock advances 30 minutes, then the data moves on and old posts keep their content', async () => {
    const sim = await start();
    const before = await bodies(sim);
    const oldPosts = (await allPosts(sim.url)).posts;
    sim.advanceClock(30 * 60 * 1000);
    const after = await bodies(sim);
    // Compare the lists, not generated_at, which moves with the clock anyway.
    const withoutStamp = (text: string | undefined): string => text?.replace(/"generated_at":"[^"]*",?/, '') ?? '';
    expect(withoutStamp(after[0]), 'trending tokens').to.not.equal(withoutStamp(before[0]));
    expect(withoutStamp(after[1]), 'trending contracts').to.not.equal(withoutStamp(before[1]));
    expect(after[2], 'posts').to.not.equal(before[2]);
    expect(after[3], 'an account is stable').to.equal(before[3]);

    const newPosts = (await allPosts(sim.url)).posts;
    expect(newPosts).to.have.length(1000);
    const oldById = new Map(oldPosts.map((p) => [p.id, p]));
    const kept = newPosts.filter((p) => oldById.has(p.id));
    expect(kept.length).to.be.within(985, 995); // 1800 s / 259.2 s = 6.9 slots rolled over
    for (const p of kept) expect(p).to.deep.equal(oldById.get(p.id));
    const newest = newPosts[0];
    expect(newest && Date.parse(newest.created_at)).to.be.greaterThan(NOW);
  });

  it('when the clock is advanced over HTTP, then generated_at follows it', async () => {
    const sim = await start();
    const res = await request(`${sim.url}/__sim/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 3_600_000 }),
    });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ now: new Date(NOW + 3_600_000).toISOString(), offsetMs: 3_600_000 });
    const tokens = await getOk<{ generated_at: string }>(`${sim.url}/v1/trending/tokens`);
    expect(tokens.generated_at).to.equal(new Date(NOW + 3_600_000).toISOString());
    const bad = await request(`${sim.url}/__sim/clock`, { method: 'POST', body: '{"advanceMs":-5}' });
    expect(bad.status).to.equal(400);
    expect(() => sim.advanceClock(Number.NaN)).to.throw(RangeError);
  });

  it('when a cursor is used after the clock moved, then paging continues without gaps or repeats', async () => {
    const sim = await start();
    const first = await getOk<PostsPage>(`${sim.url}/v1/posts?limit=100`);
    sim.advanceClock(10 * 60 * 1000);
    const second = await getOk<PostsPage>(`${sim.url}/v1/posts?limit=100&cursor=${first.next_cursor ?? ''}`);
    const last = first.posts.at(-1);
    const next = second.posts[0];
    expect(last && next && Date.parse(last.created_at) - Date.parse(next.created_at)).to.equal(259_200);
  });
});

describe('index simulator: API key and stats', () => {
  let sim: Simulator;
  afterEach(() => sim.close());

  it('when an API key is configured, then /v1 requests need it and /__sim requests do not', async () => {
    sim = await startAt({ apiKey: 's3cret' });
    for (const headers of [{}, { 'x-api-key': 'wrong' }, { 'x-api-key': 's3cret-and-more' }]) {
      const res = await request(`${sim.url}/v1/trending/tokens`, { headers });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ error: 'unauthorized' });
    }
    const ok = await request(`${sim.url}/v1/trending/tokens`, { headers: { 'X-Api-Key': 's3cret' } });
    expect(ok.status).to.equal(200);
    expect((await request(`${sim.url}/__sim/stats`)).status).to.equal(200);
  });

  it('when no API key is configured, then requests without one are served', async () => {
    sim = await startAt();
    expect((await request(`${sim.url}/v1/posts`)).status).to.equal(200);
  });

  it('when requests are served, then stats count each /v1 route template and nothing else', async () => {
    sim = await startAt();
    await request(`${sim.url}/v1/posts`);
    await request(`${sim.url}/v1/accounts/CryptoKoala`);
    await request(`${sim.url}/v1/accounts/nobody_here`);
    await request(`${sim.url}/v1/trending/tokens?limit=0`);
    await request(`${sim.url}/v1/unknown`);
    await request(`${sim.url}/__sim/faults`);
    const expected = {
      '/v1/trending/tokens': 1,
      '/v1/trending/contracts': 0,
      '/v1/posts': 1,
      '/v1/accounts/:username': 2,
    };
    expect(sim.stats()).to.deep.equal(expected);
    expect((await request(`${sim.url}/__sim/stats`)).body).to.deep.equal(expected);
    sim.resetStats();
    expect(sim.stats()['/v1/posts']).to.equal(0);
    await request(`${sim.url}/v1/posts`);
    expect((await request(`${sim.url}/__sim/stats`, { method: 'DELETE' })).status).to.equal(200);
    expect(Object.values(sim.stats()).every((n) => n === 0)).to.equal(true);
  });
});
