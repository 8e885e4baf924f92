import { expect } from 'chai';
import type { Job } from 'bullmq';
import { fetchStats } from '../../../apps/worker/src/jobs/fetch-stats.js';
import { createJobContext } from '../../../apps/worker/src/jobs/create-job-context.js';
import { refreshList } from '../../../apps/worker/src/jobs/refresh-list.js';
import { keys } from '../../../shared/keyspace.js';
import type { StatsJobData } from '../../../shared/queues.js';
import { snapshotKeys } from '../../../shared/snapshot-keys.js';
import { providerKeys } from '../../../shared/provider-keys.js';
import { createLogger } from '../../../shared/logger.js';
import { ETH_CA, SOL_CA } from '../../../dev/provider-fixtures/elfa.js';
import { FIXTURE_CRYPTOALICE_STATS, FIXTURE_TRENDING } from './composite-expected.js';
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
    expect(result).to.deep.equal(FIXTURE_TRENDING);
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

  it('when stats are asked in any case, then spelled as X spells it, computed over the tracked set from the held posts, and no call to any provider, the retired smart-stats least of all', async () => {
    const { result: alice, spend } = await h.spend(() => h.provider.account('cryptoalice'));
    expect(alice).to.deep.equal(FIXTURE_CRYPTOALICE_STATS);
    expect(spend).to.deep.equal({});
    const bob = await h.provider.account('BOB_TRADES');
    expect(bob).to.deep.include({ username: 'bob_trades', indexScore: 20, smartMoneyRank: 2, totalPosts: 2, avgEngagement: 14.5 });
    expect(h.fixtures.elfa.requestsTo('/v2/account/smart-stats')).to.have.length(0);
  });

  it("when another tracked account replies to and quotes an account, then its influence inside the set lifts its score (20 -> 40), the other one's falls", async () => {
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    h.fixtures.x.addPost({
      id: '1900000000000000106',
      author_id: '1001',
      created_at: hourAgo,
      text: '@bob_trades you called $SOL early',
      metrics: { like: 1, repost: 0, reply: 0, quote: 0, bookmark: 0 },
    });
    h.fixtures.x.addPost({
      id: '1900000000000000107',
      author_id: '1001',
      created_at: hourAgo,
      text: 'Read this https://x.com/bob_trades/status/1900000000000000102',
      metrics: { like: 1, repost: 0, reply: 0, quote: 0, bookmark: 0 },
    });
    await h.provider.posts(new Date(Date.now() - WINDOW_MS), 10_000);
    // Bob: top influence (0.4), lowest engagement and reach; Alice: no influence left to her, top of the rest.
    expect(await h.provider.account('bob_trades')).to.deep.include({ indexScore: 40, smartMoneyRank: 2 });
    expect(await h.provider.account('cryptoalice')).to.deep.include({ indexScore: 60, smartMoneyRank: 1 });
  });

  it("when a tracked account's posts are not held (X does not know it), then Elfa's count of its posts fills its figures, 1 credit, remembered for the hour", async () => {
    const { result: ghost, spend } = await h.spend(() => h.provider.account('ghost_acct'));
    expect(ghost).to.deep.equal({
      username: 'ghost_acct',
      indexScore: 50,
      smartMoneyRank: 2,
      totalPosts: 4,
      avgEngagement: 23,
      topTokens: [],
    });
    expect(spend).to.deep.equal({ elfa: { calls: 1, credits: 1, posts: 0 } });
    await h.provider.account('ghost_acct');
    expect(h.fixtures.elfa.requestsTo('/v2/data/keyword-mentions')).to.have.length(1);
    // Now part of the set the others are ranked over.
    expect(await h.provider.account('bob_trades')).to.deep.include({ smartMoneyRank: 3 });
  });

  it('when Elfa cannot count them either (the route gone), then the lookup fails (503) and nothing is stored as a zero; one warning says the route is gone', async () => {
    h.fixtures.elfa.mode.accountPosts = 'gone';
    const error = await rejection(h.provider.account('ghost_acct'));
    expect(error.message).to.match(/not enough data/);
    expect(error.retryable).to.equal(false);
    // Through the stats job: no record and no "not in the index" marker, so the API answers 503, not a zero or a 404.
    const job = { data: { username: 'ghost_acct' } } as Job<StatsJobData>;
    const context = createJobContext({
      redis: h.redis,
      provider: h.provider,
      logger: createLogger({ logLevel: 'silent' }, 'test'),
      now: () => h.clock.now,
      historyMs: 0,
    });
    await rejection(fetchStats(job, context));
    expect(await h.redis.exists(keys.stats('ghost_acct'), keys.statsMiss('ghost_acct'))).to.equal(0);
    expect(h.fixtures.elfa.requests).to.have.length(1);
    expect(h.logs.filter((line) => /route is gone/.test(line.msg))).to.have.length(1);
    expect(await h.provider.account('cryptoalice')).to.deep.include({ smartMoneyRank: 1 });
  });

  it("when the day's Elfa lookup budget is spent, then no further credit is spent on stats", async () => {
    const provider = h.restart({}, { elfaLookupsPerDay: 1 });
    await provider.account('ghost_acct');
    await h.redis.del(providerKeys.elfaAccountPosts());
    await rejection(provider.account('ghost_acct'));
    expect(h.fixtures.elfa.requestsTo('/v2/data/keyword-mentions')).to.have.length(1);
  });

  it('when X cannot resolve a tracked name (5xx) and so none of its posts is held, and Elfa does not follow it, then the lookup fails (503): no zero', async () => {
    await h.redis.del(providerKeys.xAccounts());
    h.fixtures.x.script('/2/users/by', { status: 503, body: { title: 'Service Unavailable' } });
    const error = await rejection(h.provider.account('BOB_TRADES'));
    expect(error.message).to.match(/^stats of Bob_Trades: not enough data/);
    // Elfa was asked (1 credit) and answered an empty list: not taken as "posted nothing".
    expect(h.fixtures.elfa.requestsTo('/v2/data/keyword-mentions')).to.have.length(1);
  });

  describe('through the refresh jobs (strict storage)', () => {
    const context = () =>
      createJobContext({
        redis: h.redis,
        provider: h.provider,
        logger: createLogger({ logLevel: 'silent' }, 'test'),
        now: () => h.clock.now,
        historyMs: 0,
      });

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
