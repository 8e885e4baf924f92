import { expect } from 'chai';
import { Redis } from 'ioredis';
import { refreshSlotKeys } from '../../shared/keyspace.js';
import { clearRefreshBackoff, recordRefreshFailure, refreshHoldMs } from '../../shared/refresh-backoff.js';
import { sharedTestRedis } from '../support/redis-server.js';

describe('the backoff of a failing refresh, kept in Redis (docs/decisions.md#d14)', () => {
  let redis: Redis;
  before(async () => {
    redis = new Redis((await sharedTestRedis()).url, { protocol: 2 });
  });
  beforeEach(() => clearRefreshBackoff(redis, 'refresh-trending'));
  after(() => redis.disconnect());

  it('when a refresh fails again and again, then the hold doubles from the first delay up to the interval, and Redis keeps its time left', async () => {
    const delays: number[] = [];
    for (let i = 0; i < 5; i += 1) delays.push((await recordRefreshFailure(redis, 'refresh-trending', 30_000, 200_000)).delayMs);
    expect(delays).to.deep.equal([30_000, 60_000, 120_000, 200_000, 200_000]);
    expect(await refreshHoldMs(redis, 'refresh-trending')).to.be.within(199_000, 200_000);
    // Another job is not held by this one's failures.
    expect(await refreshHoldMs(redis, 'refresh-news')).to.equal(0);
  });

  it('when the refresh then succeeds, then the hold is lifted and the next failure starts from the first delay', async () => {
    await recordRefreshFailure(redis, 'refresh-trending', 30_000, 200_000);
    await recordRefreshFailure(redis, 'refresh-trending', 30_000, 200_000);
    await clearRefreshBackoff(redis, 'refresh-trending');
    expect(await refreshHoldMs(redis, 'refresh-trending')).to.equal(0);
    expect(await recordRefreshFailure(redis, 'refresh-trending', 30_000, 200_000)).to.deep.equal({ failures: 1, delayMs: 30_000 });
  });

  it('when the interval is shorter than the first delay, then the hold is the interval; the count of failures outlives the hold', async () => {
    expect((await recordRefreshFailure(redis, 'refresh-news', 30_000, 10_000)).delayMs).to.equal(10_000);
    expect(await redis.pttl(refreshSlotKeys.failures('refresh-news'))).to.be.above(await redis.pttl(refreshSlotKeys.hold('refresh-news')));
    await clearRefreshBackoff(redis, 'refresh-news');
  });
});
