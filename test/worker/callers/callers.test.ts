/**
 * The callers (docs/decisions.md#callers) on planted histories, through the worker's record
 * functions and real Redis, then the figures as of chosen instants: the first caller and its lead,
 * no caller after the breakout, pending until the horizon, `at` before the breakout, one call per
 * quiet period, and a refresh seen twice recording nothing twice.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { recordCalls, recordTokenBreakouts } from '../../../apps/worker/src/callers/record-calls.js';
import { DEFAULT_CALLERS } from '../../../shared/callers/callers-config.js';
import { accountFigures, breakoutsOf, knownAt, leaderboard, WINDOW_MS } from '../../../shared/callers/figures.js';
import { CallersRecords } from '../../../shared/callers/records-reader.js';
import { DAY_MS, HOUR_MS } from '../../../shared/durations.js';
import type { NewsItem, TrendingToken } from '../../../shared/market-types.js';
import { closeRedis } from '../../../shared/redis.js';
import { sharedRedis } from '../../support/shared-redis.js';

const T0 = Date.UTC(2031, 2, 10, 12, 0);
const config = DEFAULT_CALLERS;
let n = 0;

function post(author: string, atMs: number, tokens: string[], text = `gm ${tokens.join(' ')}`): NewsItem {
  n += 1;
  return { id: `p${n}`, text, author, authorFollowers: 5000, publishedAt: new Date(atMs).toISOString(), tokens, engagementScore: 1 };
}
const trending = (...tokens: string[]): TrendingToken[] =>
  tokens.map((token) => ({ token, name: token, mentions: 100, smartMoneyMentions: 10, priceChange24h: 0 }));

describe('callers: calls, breakouts and hits (docs/decisions.md#callers)', () => {
  let redis: Redis;
  const figuresAt = async (atMs: number) => {
    const { calls, breakouts } = await new CallersRecords(redis, config.horizonMs).load(atMs);
    return knownAt(calls, breakouts, atMs, config.horizonMs);
  };

  beforeEach(async () => {
    redis = (await sharedRedis()).client();
  });
  afterEach(async () => {
    await closeRedis(redis);
  });

  /** Alice names TKN 3 h before it enters the top 10; Bob names it an hour after. */
  async function plant() {
    await recordTokenBreakouts(redis, trending('BTC', 'ETH'), T0 - 10 * HOUR_MS, config); // seeds: nothing breaks out
    await recordCalls(redis, [], T0 - 10 * HOUR_MS, config); // the first news refresh: seeds, calls nothing
    const alice = post('Alice', T0 - 3 * HOUR_MS, ['TKN']);
    await recordCalls(redis, [alice], T0 - 2 * HOUR_MS, config);
    await recordTokenBreakouts(redis, trending('BTC', 'ETH', 'TKN'), T0, config);
    const bob = post('bob', T0 + HOUR_MS, ['$tkn']);
    await recordCalls(redis, [bob, alice], T0 + 1.5 * HOUR_MS, config);
    return { alice, bob };
  }

  it('when an account names a token 3 h before it enters the top 10, then it is the first caller with a 180-minute lead and a hit', async () => {
    const { alice } = await plant();
    const known = await figuresAt(T0 + 2 * HOUR_MS);
    const [breakout, ...others] = breakoutsOf(known, 'token', 'TKN', WINDOW_MS['7d']);
    expect(others).to.deep.equal([]);
    expect(breakout).to.deep.equal({
      at: new Date(T0).toISOString(),
      subject: 'token',
      callers: 1,
      firstCallers: [
        { username: 'Alice', calledAt: alice.publishedAt, leadMinutes: 180, followers: 5000, post: { id: alice.id, text: alice.text } },
      ],
    });
    expect(accountFigures(known, 'alice', WINDOW_MS['30d'])).to.include({
      calls: 1,
      hits: 1,
      pending: 0,
      hitRate: 1,
      medianLeadMinutes: 180,
    });
  });

  it('when an account names it after the breakout, then it is no caller, and its call is pending until the horizon passes, then a miss', async () => {
    await plant();
    const soon = await figuresAt(T0 + 2 * HOUR_MS);
    expect(breakoutsOf(soon, 'token', 'TKN', WINDOW_MS['7d'])[0]?.firstCallers.map((c) => c.username)).to.deep.equal(['Alice']);
    expect(accountFigures(soon, 'bob', WINDOW_MS['30d'])).to.include({ calls: 1, hits: 0, pending: 1, misses: 0, hitRate: null });
    const later = await figuresAt(T0 + HOUR_MS + config.horizonMs + HOUR_MS);
    expect(accountFigures(later, 'bob', WINDOW_MS['30d'])).to.include({ calls: 1, hits: 0, pending: 0, misses: 1, hitRate: 0 });
    expect(leaderboard(later, WINDOW_MS['30d'], 'hitRate', 1).map((row) => [row.username, row.hitRate])).to.deep.equal([
      ['Alice', 1],
      ['bob', 0],
    ]);
  });

  it('when the figures are asked as of before the breakout, then the call is pending and the token has no breakout', async () => {
    await plant();
    const before = await figuresAt(T0 - HOUR_MS);
    expect(breakoutsOf(before, 'token', 'TKN', WINDOW_MS['7d'])).to.deep.equal([]);
    expect(accountFigures(before, 'alice', WINDOW_MS['30d'])).to.include({ calls: 1, hits: 0, pending: 1 });
    // Bob's post was not yet seen: no call of his.
    expect(accountFigures(before, 'bob', WINDOW_MS['30d']).calls).to.equal(0);
  });

  it('when an account names a token every day, then it makes one call per quiet period, and a refresh seen twice records nothing twice', async () => {
    await recordCalls(redis, [post('carol', T0 - 30 * DAY_MS, ['OLD'])], T0 - 30 * DAY_MS, config); // seeds
    const recorded: number[] = [];
    const posts: NewsItem[] = [];
    // Every day for 10 days, then 8 days of silence, then again: two quiet periods, two calls.
    const days = [...Array.from({ length: 10 }, (_, d) => d), 18, 19];
    for (const day of days) {
      posts.push(post('carol', T0 + day * DAY_MS, ['XYZ']));
      const seenMs = T0 + day * DAY_MS + HOUR_MS;
      const window = posts.filter((p) => Date.parse(p.publishedAt) > seenMs - 3 * DAY_MS);
      recorded.push(await recordCalls(redis, window, seenMs, config));
      recorded.push(await recordCalls(redis, window, seenMs, config));
    }
    expect(recorded.reduce((a, b) => a + b, 0)).to.equal(2);
    const known = await figuresAt(T0 + 20 * DAY_MS);
    expect(known.calls.map((call) => new Date(call.callMs).toISOString())).to.deep.equal([
      new Date(T0).toISOString(),
      new Date(T0 + 18 * DAY_MS).toISOString(),
    ]);
  });

  it('when the first news refresh sees its 72 h of posts, then it calls nothing: those accounts’ earlier mentions were never seen', async () => {
    const first = [post('dave', T0 - 50 * HOUR_MS, ['AAA']), post('erin', T0 - HOUR_MS, ['BBB'])];
    expect(await recordCalls(redis, first, T0, config)).to.equal(0);
    // Later refreshes: dave again within the quiet period is no call; erin's first mention of CCC is.
    expect(
      await recordCalls(
        redis,
        [...first, post('dave', T0 + HOUR_MS, ['AAA']), post('erin', T0 + HOUR_MS, ['CCC'])],
        T0 + 2 * HOUR_MS,
        config,
      ),
    ).to.equal(1);
  });

  it('when a token stays in the top, or leaves and returns within the quiet period, then it breaks out once', async () => {
    await recordTokenBreakouts(redis, trending('BTC'), T0, config);
    const counts = [];
    counts.push(await recordTokenBreakouts(redis, trending('BTC', 'NEW'), T0 + HOUR_MS, config));
    counts.push(await recordTokenBreakouts(redis, trending('BTC', 'NEW'), T0 + HOUR_MS, config)); // the same refresh again
    counts.push(await recordTokenBreakouts(redis, trending('BTC'), T0 + 2 * HOUR_MS, config));
    counts.push(await recordTokenBreakouts(redis, trending('BTC', 'NEW'), T0 + 3 * DAY_MS, config));
    counts.push(await recordTokenBreakouts(redis, trending('NEW'), T0 + 3 * DAY_MS + 8 * DAY_MS, config)); // away 8 days: again
    expect(counts).to.deep.equal([1, 0, 0, 0, 1]);
    // Place 11 is not the top 10.
    const eleven = trending(...Array.from({ length: 10 }, (_, i) => `T${i}`), 'LATE');
    await recordTokenBreakouts(redis, eleven, T0 + 20 * DAY_MS, config);
    const known = await figuresAt(T0 + 20 * DAY_MS);
    expect(known.breakouts.map((b) => b.id)).to.not.include('LATE');
  });

  it('when a day holds more calls than one read returns, then they are all read, and a later load adds only the new ones', async () => {
    await recordCalls(redis, [], T0 - HOUR_MS, config); // seeds
    const accounts = Array.from({ length: 6_001 }, (_, i) => post(`acct${i}`, T0 - 30 * 60_000, ['MANY']));
    await recordCalls(redis, accounts, T0, config);
    const records = new CallersRecords(redis, config.horizonMs);
    expect((await records.load(T0)).calls).to.have.length(6_001);
    await recordCalls(redis, [post('late', T0 + 60_000, ['MANY'])], T0 + 2 * 60_000, config);
    const { calls } = await records.load(T0 + 2 * 60_000);
    expect(calls).to.have.length(6_002);
    expect(new Set(calls.map((call) => call.account)).size).to.equal(6_002);
  });
});
