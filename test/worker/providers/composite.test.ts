import { expect } from 'chai';
import type { JobContext } from '../../../apps/worker/src/jobs/job-context.js';
import { refreshList } from '../../../apps/worker/src/jobs/refresh-list.js';
import { indexScores } from '../../../apps/worker/src/providers/composite.js';
import { snapshotKeys } from '../../../shared/snapshot-keys.js';
import { providerKeys } from '../../../shared/provider-keys.js';
import { createLogger } from '../../../shared/logger.js';
import { ETH_CA, SOL_CA } from '../../support/provider-fixtures/elfa.js';
import { rejection, startHarness, type Harness } from './helpers.js';

const WINDOW_MS = 72 * 3_600_000;

describe('the composite provider (Elfa + CoinGecko + X, the rest ours)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
    await h.provider.posts(new Date(Date.now() - WINDOW_MS), 10_000);
    h.fixtures.reset();
  });
  afterEach(async () => {
    await h.close();
  });

  it('when trending is read, then Elfa mentions, CoinGecko names and price changes, tracked posts of 24 h as smart money, ranked by smart money then mentions', async () => {
    const { result, spend } = await h.spend(() => h.provider.trendingTokens());
    expect(result).to.deep.equal([
      { token: 'SOL', name: 'Solana', mentions: 120, smartMoneyMentions: 3, priceChange24h: 3.2 },
      { token: 'BTC', name: 'Bitcoin', mentions: 95, smartMoneyMentions: 1, priceChange24h: -1.5 },
      { token: 'PEPE', name: 'Pepe', mentions: 80, smartMoneyMentions: 1, priceChange24h: 0 },
      { token: 'AXL', name: 'Axelar', mentions: 40, smartMoneyMentions: 0, priceChange24h: 2.5 },
      { token: 'NEWCOIN', name: 'NEWCOIN', mentions: 12, smartMoneyMentions: 0, priceChange24h: 0 },
    ]);
    expect(spend).to.deep.equal({ elfa: { calls: 1, credits: 1, posts: 0 }, coingecko: { calls: 1, credits: 1, posts: 0 } });
    expect(h.fixtures.x.requests).to.have.length(0);
  });

  it('when CoinGecko cannot answer, then the tokens keep their ticker as name and 0, and the Elfa credit is not wasted', async () => {
    h.fixtures.coingecko.script('/coins/markets', { status: 500, body: { error: 'down' } });
    const list = await h.provider.trendingTokens();
    expect(list[0]).to.deep.equal({ token: 'SOL', name: 'SOL', mentions: 120, smartMoneyMentions: 3, priceChange24h: 0 });
  });

  it('when contract addresses are read, then both networks merged, tracked posts containing the address counted, firstSeenAt set once and never moved, across restarts', async () => {
    const first = await h.provider.trendingContracts();
    expect(first.map(({ address, mentions, smartMoneyMentions }) => ({ address, mentions, smartMoneyMentions }))).to.deep.equal([
      { address: SOL_CA, mentions: 30, smartMoneyMentions: 1 },
      { address: ETH_CA, mentions: 15, smartMoneyMentions: 1 },
      { address: 'So11111111111111111111111111111111111111112', mentions: 0, smartMoneyMentions: 0 },
    ]);
    const seen = h.clock.now.toISOString();
    for (const ca of first) expect(ca.firstSeenAt).to.equal(seen);

    h.clock.now = new Date(h.clock.now.getTime() + 3_600_000);
    const later = await h.restart().trendingContracts();
    for (const ca of later) expect(ca.firstSeenAt).to.equal(seen);
  });

  it('when stats are asked for an untracked username, then null (404) and no provider is called', async () => {
    expect(await h.provider.account('someone_else')).to.equal(null);
    expect(h.fixtures.elfa.requests.length + h.fixtures.x.requests.length + h.fixtures.coingecko.requests.length).to.equal(0);
  });

  it('when stats are asked in any case, then spelled as X spells it, smart stats from Elfa, score and rank over the tracked set, posts and tokens from the held posts', async () => {
    const { result: alice, spend } = await h.spend(() => h.provider.account('cryptoalice'));
    expect(alice).to.deep.equal({ username: 'CryptoAlice', indexScore: 100, smartMoneyRank: 1, totalPosts: 3, avgEngagement: 240.5, topTokens: ['SOL', 'BTC', 'PEPE', 'TAIL'] });
    expect(spend).to.deep.equal({ elfa: { calls: 1, credits: 1, posts: 0 } });
    expect(h.fixtures.elfa.requests[0]!.query).to.deep.equal({ username: 'CryptoAlice' });

    const bob = await h.provider.account('BOB_TRADES');
    expect(bob).to.deep.include({ username: 'bob_trades', indexScore: 50, smartMoneyRank: 2, totalPosts: 2, avgEngagement: 80 });
    // An account X and Elfa do not know is still tracked: zeros, ranked last.
    expect(await h.provider.account('ghost_acct')).to.deep.include({ username: 'ghost_acct', avgEngagement: 0, smartMoneyRank: 3, totalPosts: 0 });
  });

  it('when X cannot resolve a tracked name (5xx), then the stats still answer, spelled as configured', async () => {
    await h.redis.del(providerKeys.xAccounts());
    h.fixtures.x.script('/2/users/by', { status: 503, body: { title: 'Service Unavailable' } });
    expect(await h.provider.account('BOB_TRADES')).to.deep.include({ username: 'Bob_Trades', avgEngagement: 80 });
  });

  it('indexScore: the weighted percentile of smart following (0.5), engagement (0.3) and reach (0.2) within the set', () => {
    const scores = indexScores(
      new Map([
        ['a', { smartFollowingCount: 10, averageEngagement: 1, averageReach: 100, followerCount: 0 }],
        ['b', { smartFollowingCount: 5, averageEngagement: 9, averageReach: 50, followerCount: 0 }],
      ]),
    );
    expect(Object.fromEntries(scores)).to.deep.equal({ a: 0.5 * 100 + 0.3 * 50 + 0.2 * 100, b: 0.5 * 50 + 0.3 * 100 + 0.2 * 50 });
  });

  describe('through the refresh jobs (strict storage)', () => {
    const context = (): JobContext => ({ redis: h.redis, index: h.provider, logger: createLogger({ logLevel: 'silent' }, 'test'), now: () => h.clock.now, historyMs: 0 });

    for (const [name, answer] of [
      ['no valid item', { body: { success: true, data: { data: [{ token: 7 }, { current_count: 3 }] } } }],
      ['an empty list', { body: { success: true, data: { pageSize: 50, page: 1, total: 0, data: [] } } }],
      ['a malformed body', { body: '<html>502</html>' }],
    ] as const) {
      it(`when Elfa answers ${name}, then the stored trending snapshot and its cachedAt stay as they were`, async () => {
        await refreshList(context(), 'trending');
        const before = await h.redis.get(snapshotKeys.snapshot('trending'));
        expect((JSON.parse(before!) as { data: unknown[] }).data).to.have.length(5);
        h.clock.now = new Date(h.clock.now.getTime() + 60_000);
        h.fixtures.elfa.script('/v2/aggregations/trending-tokens', answer);
        await rejection(refreshList(context(), 'trending'));
        expect(await h.redis.get(snapshotKeys.snapshot('trending'))).to.equal(before);
      });
    }

    it('when Elfa is out of credits, then the trending-cas snapshot keeps its true cachedAt and Elfa is not asked again', async () => {
      await refreshList(context(), 'trending-cas');
      const before = await h.redis.get(snapshotKeys.snapshot('trending-cas'));
      h.fixtures.elfa.script('/v2/aggregations', { status: 402, body: { error: 'out of credits' } });
      h.clock.now = new Date(h.clock.now.getTime() + 60_000);
      const error = await rejection(refreshList(context(), 'trending-cas'));
      expect(error.retryable).to.equal(false);
      await rejection(refreshList(context(), 'trending-cas'));
      await rejection(refreshList(context(), 'trending'));
      expect(h.fixtures.elfa.requests).to.have.length(1 + 2);
      expect(await h.redis.get(snapshotKeys.snapshot('trending-cas'))).to.equal(before);
    });
  });
});
