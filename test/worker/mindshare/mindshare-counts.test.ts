/**
 * Mindshare's counts (docs/decisions.md#d20) on a constructed set of posts, against the shares
 * computed by hand: a post seen by three refreshes counts once, a post naming two tokens counts
 * for both, a post past retention is not counted and every bucket expires with retention; a worker
 * that dies between the seen-check and the count loses nothing, two that race count once.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import {
  candidates,
  countFresh,
  countMentions,
  mindshareLists,
  readBuckets,
  unseen,
} from '../../../apps/worker/src/mindshare/mindshare-counts.js';
import { loadConfig } from '../../../shared/config.js';
import { mindshareKeys } from '../../../shared/keyspace.js';
import type { NewsItem } from '../../../shared/market-types.js';
import { DAY_MS, HOUR_MS } from '../../../shared/durations.js';
import { closeRedis, createRedis } from '../../../shared/redis.js';
import { sharedRedis } from '../../support/shared-redis.js';

const RETENTION_MS = 30 * DAY_MS;
// An hour boundary far from today, so no other test's buckets share its hours.
const NOW = Date.UTC(2031, 0, 10, 12, 30);

function post(id: string, author: string, hoursAgo: number, tokens: string[], engagementScore = 10): NewsItem {
  return {
    id,
    text: `post ${id}`,
    author,
    authorFollowers: 1000,
    publishedAt: new Date(NOW - hoursAgo * HOUR_MS).toISOString(),
    tokens,
    engagementScore,
  };
}

/** Polarity by author, so the sentiment sums are known: alice +0.5, bob -0.25, carol 0. */
const POLARITY: Record<string, number> = { 'post a1': 0.5, 'post a2': 0.5, 'post b1': -0.25, 'post b2': -0.25 };
const score = (text: string) => POLARITY[text] ?? 0;

const POSTS = [
  post('a1', 'alice', 0.2, ['SOL', 'BTC'], 20), // this hour: SOL and BTC
  post('a2', 'alice', 0.4, ['$sol'], 10), // this hour: SOL (the $ and case do not matter)
  post('b1', 'bob', 0.1, ['SOL', 'SOL'], 30), // this hour: SOL once (named twice)
  post('c1', 'carol', 0.3, ['ETH']), // this hour: ETH
  post('c2', 'carol', 0.5, []), // no token: not a mention
  post('b2', 'bob', 5, ['BTC'], 40), // five hours ago: in 24h, not in 1h
  post('c3', 'carol', 30, ['ETH']), // 30 hours ago: in 7d, and the 24h window before
  post('old', 'carol', 31 * 24, ['ETH']), // past the 30 days of retention
];

describe('mindshare counts (docs/decisions.md#d20)', () => {
  let redis: Redis;

  before(async () => {
    redis = createRedis(loadConfig({ NODE_ENV: 'test', ...(await sharedRedis()).env }), 'worker', 'test-mindshare', {
      warn() {},
      info() {},
    });
  });
  after(async () => {
    await closeRedis(redis);
  });
  beforeEach(async () => {
    const hours = Array.from({ length: 32 * 24 }, (_, i) => Math.floor(NOW / HOUR_MS) * HOUR_MS - i * HOUR_MS);
    await Promise.all(
      hours.flatMap((hour) => [
        redis.del(mindshareKeys.bucket('hour', hour)),
        redis.del(mindshareKeys.bucket('day', hour)),
        redis.del(mindshareKeys.seen(hour)),
      ]),
    );
  });

  it('when three refreshes see the same posts, then each post is counted once, and the shares are the hand-computed ones', async () => {
    const counted = [];
    for (let refresh = 0; refresh < 3; refresh++) counted.push((await countMentions(redis, POSTS, score, NOW, RETENTION_MS)).counted);
    // 6 posts with a token within retention (c2 names none, "old" is past retention); the next two refreshes add nothing.
    expect(counted).to.deep.equal([6, 0, 0]);

    const lists = mindshareLists(await readBuckets(redis, NOW, RETENTION_MS), NOW);
    // 1h (this hour): mentions SOL 3 (a1, a2, b1), BTC 1 (a1), ETH 1 (c1): 5 in all.
    expect(lists['1h']).to.deep.equal([
      { token: 'SOL', share: 0.6, mentions: 3, authors: 2, engagement: 60, shareChange: null, sentiment: 0.25 },
      { token: 'BTC', share: 0.2, mentions: 1, authors: 1, engagement: 20, shareChange: null, sentiment: 0.5 },
      { token: 'ETH', share: 0.2, mentions: 1, authors: 1, engagement: 10, shareChange: null, sentiment: 0 },
    ]);
    // 24h: SOL 3, BTC 2 (a1, b2), ETH 1: 6 in all. The 24 h before: ETH 1 (c3) of 1.
    expect(lists['24h']).to.deep.equal([
      { token: 'SOL', share: 0.5, mentions: 3, authors: 2, engagement: 60, shareChange: 0.5, sentiment: 0.25 },
      { token: 'BTC', share: 0.3333, mentions: 2, authors: 2, engagement: 60, shareChange: 0.3333, sentiment: 0.125 },
      { token: 'ETH', share: 0.1667, mentions: 1, authors: 1, engagement: 10, shareChange: -0.8333, sentiment: 0 },
    ]);
    // 7d: SOL 3, BTC 2, ETH 2 (c1, c3): 7 in all; the 7 days before hold nothing.
    expect(lists['7d'].map(({ token, share, mentions, shareChange }) => ({ token, share, mentions, shareChange }))).to.deep.equal([
      { token: 'SOL', share: 0.4286, mentions: 3, shareChange: null },
      { token: 'BTC', share: 0.2857, mentions: 2, shareChange: null },
      { token: 'ETH', share: 0.2857, mentions: 2, shareChange: null },
    ]);
    expect(lists['30d']).to.deep.equal(lists['7d'].map((item) => ({ ...item })));
  });

  it('when a post is past retention, then no bucket is written for it; a day expires retention after it ends, an hour 48 h after', async () => {
    await countMentions(redis, POSTS, score, NOW, RETENTION_MS);
    const oldHour = Math.floor((NOW - 31 * DAY_MS) / HOUR_MS) * HOUR_MS;
    const oldDay = Math.floor(oldHour / DAY_MS) * DAY_MS;
    expect(
      await redis.exists(mindshareKeys.bucket('hour', oldHour), mindshareKeys.bucket('day', oldDay), mindshareKeys.seen(oldHour)),
    ).to.equal(0);
    const thisHour = Math.floor(NOW / HOUR_MS) * HOUR_MS;
    const today = Math.floor(NOW / DAY_MS) * DAY_MS;
    expect(await redis.pexpiretime(mindshareKeys.bucket('day', today))).to.equal(today + DAY_MS + RETENTION_MS);
    // The hourly buckets only serve 1h and 24h (and the windows before them): 48 hours.
    expect(await redis.pexpiretime(mindshareKeys.bucket('hour', thisHour))).to.equal(thisHour + HOUR_MS + 48 * HOUR_MS);
    // The seen set only needs to outlive the news window (72 h), not retention.
    expect(await redis.pexpiretime(mindshareKeys.seen(thisHour))).to.equal(thisHour + HOUR_MS + 73 * HOUR_MS);
  });

  it('when the clock passes retention, then the old buckets are no longer read into any window', async () => {
    await countMentions(redis, POSTS, score, NOW, RETENTION_MS);
    // 29 days later with 1 day of retention: only buckets of the last day count, and none is left.
    const later = NOW + 29 * DAY_MS;
    const buckets = await readBuckets(redis, later, DAY_MS);
    expect([...buckets.hour.keys(), ...buckets.day.keys()]).to.deep.equal([]);
    expect(mindshareLists(buckets, later)['30d']).to.deep.equal([]);
  });

  it('when a worker dies between the seen-check and the count, then the next refresh counts every post, once', async () => {
    const all = candidates(POSTS, NOW, RETENTION_MS);
    expect(await unseen(redis, all)).to.have.length(6);
    // The worker dies here, before countFresh: the check wrote nothing, so nothing is lost.
    expect((await countMentions(redis, POSTS, score, NOW, RETENTION_MS)).counted).to.equal(6);
    expect((await countMentions(redis, POSTS, score, NOW, RETENTION_MS)).counted).to.equal(0);
    const lists = mindshareLists(await readBuckets(redis, NOW, RETENTION_MS), NOW);
    expect(lists['24h'].map(({ token, mentions }) => [token, mentions])).to.deep.equal([
      ['SOL', 3],
      ['BTC', 2],
      ['ETH', 1],
    ]);
  });

  it('when two workers pass the seen-check together, or a count is sent twice, then each post is counted once', async () => {
    const all = candidates(POSTS, NOW, RETENTION_MS);
    const [first, second] = await Promise.all([unseen(redis, all), unseen(redis, all)]);
    const counted = await Promise.all([countFresh(redis, first, score, RETENTION_MS), countFresh(redis, second, score, RETENTION_MS)]);
    expect(counted[0] + counted[1]).to.equal(6);
    // A retry of a count whose reply was lost: the script finds every id seen and adds nothing.
    expect(await countFresh(redis, first, score, RETENTION_MS)).to.equal(0);
    const lists = mindshareLists(await readBuckets(redis, NOW, RETENTION_MS), NOW);
    expect(lists['1h']).to.deep.equal([
      { token: 'SOL', share: 0.6, mentions: 3, authors: 2, engagement: 60, shareChange: null, sentiment: 0.25 },
      { token: 'BTC', share: 0.2, mentions: 1, authors: 1, engagement: 20, shareChange: null, sentiment: 0.5 },
      { token: 'ETH', share: 0.2, mentions: 1, authors: 1, engagement: 10, shareChange: null, sentiment: 0 },
    ]);
  });
});
