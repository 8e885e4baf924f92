import { expect } from 'chai';
import type { Simulator } from '../../apps/index-sim/src/server.js';
import { type AccountBody, type Contract, NOW, type PostsPage, type TrendingToken, allPosts, getOk, request, startAt } from './helpers.js';

const THREE_DAYS = 3 * 24 * 60 * 60 * 1000;
const EVM = /^0x[0-9a-f]{40}$/;
const SOLANA = /^[1-9A-HJ-NP-Za-km-z]{43,44}$/;

describe('index simulator: data', () => {
  let sim: Simulator;
  beforeEach(async () => {
    sim = await startAt();
  });
  afterEach(() => sim.close());

  it('when trending tokens are requested, then every token comes back ranked by smart mentions', async () => {
    const body = await getOk<{ generated_at: string; tokens: TrendingToken[] }>(`${sim.url}/v1/trending/tokens?limit=100`);
    expect(body.generated_at).to.equal(new Date(NOW).toISOString());
    expect(body.tokens.length).to.be.at.least(40);
    expect(new Set(body.tokens.map((t) => t.symbol)).size).to.equal(body.tokens.length);
    for (const [i, t] of body.tokens.entries()) {
      expect(t.symbol).to.match(/^[A-Z0-9]{2,10}$/);
      expect(t.name).to.be.a('string').with.length.greaterThan(0);
      expect(t.smart_mentions).to.be.within(0, t.mentions);
      expect(t.price_change_24h).to.be.within(-30, 40);
      const next = body.tokens[i + 1];
      if (next) expect(t.smart_mentions).to.be.at.least(next.smart_mentions);
    }
    expect(body.tokens.filter((t) => t.mentions > 0).length).to.be.at.least(30);
    expect(new Set(body.tokens.map((t) => Math.sign(t.price_change_24h))).size).to.be.at.least(2);
    const limited = await getOk<{ tokens: TrendingToken[] }>(`${sim.url}/v1/trending/tokens?limit=5`);
    expect(limited.tokens.map((t) => t.symbol)).to.deep.equal(body.tokens.slice(0, 5).map((t) => t.symbol));
  });

  it('when contracts are requested, then 30 valid addresses on at least 3 chains come back', async () => {
    const body = await getOk<{ contracts: Contract[] }>(`${sim.url}/v1/trending/contracts`);
    expect(body.contracts).to.have.length(30);
    expect(new Set(body.contracts.map((c) => c.address)).size).to.equal(30);
    expect(new Set(body.contracts.map((c) => c.chain)).size).to.be.at.least(3);
    for (const [i, c] of body.contracts.entries()) {
      expect(c.chain).to.be.oneOf(['ethereum', 'base', 'bsc', 'solana']);
      expect(c.address).to.match(c.chain === 'solana' ? SOLANA : EVM);
      expect(c.smart_mentions).to.be.within(0, c.mentions);
      const seen = Date.parse(c.first_seen_at);
      expect(seen).to.be.within(NOW - THREE_DAYS - 3 * 3_600_000, NOW);
      const next = body.contracts[i + 1];
      if (next) expect(c.smart_mentions).to.be.at.least(next.smart_mentions);
    }
  });

  it('when early accounts post, then some name a contract address hours before it first trends, and none names one already listed', async () => {
    const { posts } = await allPosts(sim.url);
    const { contracts } = await getOk<{ contracts: Contract[] }>(`${sim.url}/v1/trending/contracts`);
    const seenAt = new Map(contracts.map((c) => [c.address, Date.parse(c.first_seen_at)]));
    const calls = posts.flatMap((p) => {
      const address = / CA: (\S+)$/.exec(p.text)?.[1];
      return address ? [{ author: p.author.username, at: Date.parse(p.created_at), address }] : [];
    });
    expect(calls.length).to.be.at.least(5);
    // Only the few early accounts make them.
    expect(new Set(calls.map((call) => call.author)).size).to.be.within(1, 6);
    const listedSince = calls.filter((call) => seenAt.has(call.address));
    expect(listedSince.length).to.be.at.least(3);
    for (const call of listedSince) expect(seenAt.get(call.address)! - call.at).to.be.within(1, 8 * 3_600_000);
  });

  it('when paging posts with cursors, then exactly 1000 distinct posts of the last 3 days come back newest first', async () => {
    const { posts, pages } = await allPosts(sim.url, 'limit=300');
    expect(pages).to.equal(4);
    expect(posts).to.have.length(1000);
    expect(new Set(posts.map((p) => p.id)).size).to.equal(1000);
    const tracked = new Set(sim.trackedUsernames());
    for (const [i, p] of posts.entries()) {
      expect(p.id).to.match(/^\d+$/);
      expect(tracked.has(p.author.username), p.author.username).to.equal(true);
      expect(p.author.followers).to.be.within(1_000, 2_000_000);
      expect(p.engagement).to.be.at.least(0);
      expect(p.tokens.length).to.be.within(1, 3);
      for (const symbol of p.tokens) expect(p.text).to.include(`$${symbol}`);
      const at = Date.parse(p.created_at);
      expect(at).to.be.within(NOW - THREE_DAYS, NOW);
      const next = posts[i + 1];
      if (next) expect(at).to.be.greaterThan(Date.parse(next.created_at));
    }
    const first = await getOk<PostsPage>(`${sim.url}/v1/posts`);
    expect(first.posts).to.have.length(100);
    expect(first.posts[0]).to.deep.equal(posts[0]);
  });

  it('when since is given, then only posts at or after it come back', async () => {
    const since = new Date(NOW - 3_600_000).toISOString();
    const { posts } = await allPosts(sim.url, `limit=5&since=${encodeURIComponent(since)}`);
    expect(posts.length).to.be.within(13, 15); // one post every 259.2 s
    for (const p of posts) expect(Date.parse(p.created_at)).to.be.at.least(NOW - 3_600_000);
  });

  it('when query values are out of range, then the answer is 400 bad_request', async () => {
    const bad = [
      '/v1/trending/tokens?limit=0',
      '/v1/trending/tokens?limit=101',
      '/v1/trending/contracts?limit=abc',
      '/v1/posts?limit=501',
      '/v1/posts?limit=',
      '/v1/posts?since=yesterday',
      '/v1/posts?cursor=%21%21',
      '/v1/posts?cursor=bm9wZQ',
    ];
    for (const path of bad) {
      const res = await request(sim.url + path);
      expect(res.status, path).to.equal(400);
      expect(res.body, path).to.deep.equal({ error: 'bad_request' });
    }
  });

  it('when accounts are looked up, then 300 tracked accounts resolve case-insensitively with unique ranks', async () => {
    const names = sim.trackedUsernames();
    expect(names).to.have.length(300);
    expect(new Set(names.map((n) => n.toLowerCase())).size).to.equal(300);
    const bodies: AccountBody[] = [];
    for (const name of names) {
      expect(name).to.match(/^[A-Za-z0-9_]{1,15}$/);
      bodies.push(await getOk<AccountBody>(`${sim.url}/v1/accounts/${encodeURIComponent(name)}`));
    }
    expect(bodies.map((b) => b.smart_rank).sort((a, b) => a - b)).to.deep.equal(names.map((_, i) => i + 1));
    const byRank = [...bodies].sort((a, b) => a.smart_rank - b.smart_rank);
    for (const [i, b] of byRank.entries()) {
      expect(b.score).to.be.within(0, 100);
      expect(b.posts_count).to.be.greaterThan(0);
      expect(b.avg_engagement).to.be.greaterThan(0);
      expect(b.top_tokens.length).to.be.at.least(1);
      const next = byRank[i + 1];
      if (next) expect(b.score).to.be.at.least(next.score);
    }
    expect(names.some((n) => /[a-z]/.test(n) && /[A-Z]/.test(n))).to.equal(true);
    const canonical = names[0] ?? '';
    for (const spelling of [canonical.toUpperCase(), canonical.toLowerCase(), `@${canonical}`, `%40${canonical}`]) {
      const body = await getOk<AccountBody>(`${sim.url}/v1/accounts/${spelling}`);
      expect(body.username).to.equal(canonical);
    }
  });

  it('when an account is not tracked or a path is unknown, then the answer is 404', async () => {
    for (const name of ['nobody_here', 'no-such-name', 'x'.repeat(40)]) {
      const res = await request(`${sim.url}/v1/accounts/${name}`);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'account_not_found' });
    }
    for (const path of ['/v1/nothing', '/v2/posts', '/', '/v1/accounts/', '/__sim/nothing']) {
      const res = await request(sim.url + path);
      expect(res.status, path).to.equal(404);
      expect(res.body, path).to.deep.equal({ error: 'not_found' });
    }
    expect((await request(`${sim.url}/v1/posts`, { method: 'POST' })).status).to.equal(404);
  });

  it('when all posts are scanned, then some tokens read clearly bullish and others clearly bearish', async () => {
    const { posts } = await allPosts(sim.url);
    const bull =
      /\b(moon|pump\w*|ath|wagmi|send it|bullish|breakout|accumulating|loading|strong\w*|bought|long|early|up only|higher|undervalued)\b/i;
    const bear =
      /\b(rug|rekt|dump\w*|exploit\w*|drained|bearish|liquidated|bagholders?|crash\w*|weak\w*|dead|scam|sold|short\w*|avoid|brutal|awful|terrible|bleed\w*|lower|pain\w*|wrecked)\b/i;
    const tally = new Map<string, { bull: number; bear: number }>();
    for (const p of posts) {
      const score = (bull.test(p.text) ? 1 : 0) - (bear.test(p.text) ? 1 : 0);
      for (const symbol of p.tokens) {
        const t = tally.get(symbol) ?? { bull: 0, bear: 0 };
        if (score > 0) t.bull++;
        if (score < 0) t.bear++;
        tally.set(symbol, t);
      }
    }
    const share = (t: { bull: number; bear: number }): number => t.bull / Math.max(1, t.bull + t.bear);
    const rated = [...tally.entries()].filter(([, t]) => t.bull + t.bear >= 8);
    const bullish = rated.filter(([, t]) => share(t) >= 0.75).map(([s]) => s);
    const bearish = rated.filter(([, t]) => share(t) <= 0.25).map(([s]) => s);
    const mixed = rated.filter(([, t]) => share(t) > 0.3 && share(t) < 0.7).map(([s]) => s);
    expect(bullish, 'bullish tokens').to.include('SOL').and.have.length.of.at.least(5);
    expect(bearish, 'bearish tokens').to.include('FTT').and.have.length.of.at.least(5);
    expect(mixed.length, 'mixed tokens').to.be.at.least(5);
  });
});
