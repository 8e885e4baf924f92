/**
 * StatsService against a real Redis, with a clock the test moves: single flight, the 1 s
 * in-memory copy of hits, peek(), and the 404/503 answers (docs/decisions.md#d7). The worker is replaced by a
 * function that writes what the worker would write, so the test sees every "enqueue".
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { ReadAnswer } from '../../apps/api/src/http/representation.js';
import { StatsService } from '../../apps/api/src/market/stats-service.js';
import type { JobOutcome } from '../../apps/api/src/market/job-waiter.js';
import { NotFoundError, RateLimitedError, UnavailableError } from '../../shared/errors.js';
import { keys } from '../../shared/keyspace.js';
import { sharedTestRedis } from '../support/redis-server.js';
import { freshKeyPrefix } from '../support/shared-redis.js';

describe('StatsService', () => {
  let redis: Redis;
  let clock: number;
  const now = () => clock;

  before(async () => {
    redis = new Redis((await sharedTestRedis()).url, { protocol: 2 });
  });
  beforeEach(() => {
    freshKeyPrefix();
    clock = Date.parse('2026-11-21T00:00:00Z');
  });
  after(() => redis.quit());

  const body = (username: string, cachedAt = '2026-11-21T00:00:00.000Z') =>
    JSON.stringify({ username, indexScore: 50, smartMoneyRank: 1, totalPosts: 1, avgEngagement: 1, topTokens: [], cachedAt });
  const store = (username: string, ttlMs = 3_600_000) => redis.set(keys.stats(username), body(username), 'PX', ttlMs);
  /** A stand-in worker: counts the asks, then does `work` (write or not) and reports `outcome`. */
  const worker = (work: (username: string) => Promise<unknown> = store, outcome: JobOutcome = 'completed') => {
    const asked: string[] = [];
    const fetch = async (username: string): Promise<JobOutcome> => {
      asked.push(username);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await work(username);
      return outcome;
    };
    return { asked, fetch };
  };
  const text = (answer: ReadAnswer | undefined) => answer?.representation.body.toString();

  it('when 50 callers miss one username at once, then one ask, two Redis lookups and one shared answer', async () => {
    const { asked, fetch } = worker();
    const service = new StatsService(redis, fetch, { now });
    const pttlBefore = await pttlCalls(redis);
    const answers = await Promise.all(Array.from({ length: 50 }, () => service.get('alice')));
    expect(asked).to.deep.equal(['alice']);
    // One lookup before asking the worker, one re-read after: not one per caller.
    expect((await pttlCalls(redis)) - pttlBefore).to.equal(2);
    expect(new Set(answers.map((a) => a.representation)).size).to.equal(1);
    expect(text(answers[0])).to.equal(body('alice'));
  });

  it('when the caller that starts a flight has no miss budget, then it gets the 429, nobody asks the worker for it, and a joiner with budget gets its answer', async () => {
    const { asked, fetch } = worker();
    const service = new StatsService(redis, fetch, { now });
    const spent = new RateLimitedError('Too many requests', 60);
    const charges: string[] = [];
    const refused = service.get('carol', () => {
      charges.push('starter');
      return Promise.reject(spent);
    });
    const joiner = service.get('carol', () => {
      charges.push('joiner');
      return Promise.resolve();
    });
    expect(await rejection(refused)).to.equal(spent);
    expect(text(await joiner)).to.equal(body('carol'));
    expect(charges).to.deep.equal(['starter', 'joiner']);
    expect(asked).to.deep.equal(['carol']);
    // A hit costs nothing: the charge is not called.
    await service.get('carol', () => Promise.reject(new Error('a hit must not be charged')));
  });

  it('when the flight has settled, then the next miss starts a new one', async () => {
    const { asked, fetch } = worker(async () => {}, 'failed');
    const service = new StatsService(redis, fetch, { now });
    expect(await rejection(service.get('bob'))).to.be.instanceOf(UnavailableError);
    expect(await rejection(service.get('bob'))).to.be.instanceOf(UnavailableError);
    expect(asked).to.deep.equal(['bob', 'bob']);
  });

  it('when the worker gives up or times out, then every waiting caller gets its own 503 Upstream unavailable', async () => {
    const failed = new StatsService(redis, worker(async () => {}, 'failed').fetch, { now });
    const errors = await Promise.all([rejection(failed.get('carol')), rejection(failed.get('carol'))]);
    expect(errors[0]).to.be.instanceOf(UnavailableError).and.not.equal(errors[1]);
    expect(errors[1]).to.be.instanceOf(UnavailableError);
    expect((errors[0] as UnavailableError).message).to.equal('Upstream unavailable');
    expect((errors[0] as UnavailableError).headers).to.deep.equal({ 'Retry-After': '30' });

    const timedOut = new StatsService(redis, worker(async () => {}, 'timeout').fetch, { now });
    const error = await rejection(timedOut.get('carol'));
    expect((error as UnavailableError).headers).to.deep.equal({ 'Retry-After': '10' });
    expect(timedOut.peek('carol')).to.equal(undefined);
  });

  it('when the username is not in the index, then 404 from Redis every time, never held in memory', async () => {
    const { asked, fetch } = worker((username) => redis.set(keys.statsMiss(username), '1', 'EX', 600));
    const service = new StatsService(redis, fetch, { now });
    const error = await rejection(service.get('nobody'));
    expect(error).to.be.instanceOf(NotFoundError);
    expect((error as NotFoundError).message).to.equal('Username not found in index');
    expect(service.peek('nobody')).to.equal(undefined);
    // Remembered by Redis' miss marker: the worker is not asked again.
    expect(await rejection(service.get('nobody'))).to.be.instanceOf(NotFoundError);
    expect(asked).to.deep.equal(['nobody']);
  });

  it('when Redis fails a lookup, then the error surfaces (503 Service unavailable upstream of here) and the worker is not asked', async () => {
    const client = new Redis((await sharedTestRedis()).url, { protocol: 2, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    await new Promise((resolve) => client.once('ready', resolve));
    client.disconnect();
    const { asked, fetch } = worker();
    const error = await rejection(new StatsService(client, fetch, { now }).get('gus'));
    expect(error).to.be.instanceOf(Error).and.not.be.instanceOf(UnavailableError);
    expect(asked).to.deep.equal([]);
  });

  it('when a hit was read, then peek() answers it from memory without Redis, with max-age counting down', async () => {
    await store('dave', 60_000);
    const client = new Redis((await sharedTestRedis()).url, { protocol: 2, enableOfflineQueue: false });
    await new Promise((resolve) => client.once('ready', resolve));
    const service = new StatsService(client, worker().fetch, { now });
    expect(service.peek('dave')).to.equal(undefined); // nothing read yet: peek does not go to Redis
    const first = await service.get('dave');
    expect(first.maxAgeSeconds).to.be.within(59, 60);
    client.disconnect(); // from here on any Redis command would fail

    clock += 400;
    const peeked = service.peek('dave');
    expect(peeked).to.not.be.instanceOf(Promise);
    expect(text(peeked)).to.equal(body('dave'));
    expect(peeked!.maxAgeSeconds).to.be.closeTo(first.maxAgeSeconds - 0.4, 1e-9);
    // get() serves the same memory copy.
    expect((await service.get('dave')).maxAgeSeconds).to.be.closeTo(first.maxAgeSeconds - 0.4, 1e-9);

    clock += 599; // 999 ms after the read: still held
    expect(service.peek('dave')?.maxAgeSeconds).to.be.closeTo(first.maxAgeSeconds - 0.999, 1e-9);
    clock += 1; // 1 s: no longer
    expect(service.peek('dave')).to.equal(undefined);
  });

  it('when the Redis entry expires within the second, then the memory copy goes with it', async () => {
    await store('erin', 300);
    const service = new StatsService(redis, worker().fetch, { now });
    const pttl = await redis.pttl(keys.stats('erin'));
    await service.get('erin');
    clock += pttl - 20;
    expect(service.peek('erin')).to.not.equal(undefined);
    clock += 40;
    expect(service.peek('erin')).to.equal(undefined);
  });

  it('when the memory is full, then the oldest usernames are dropped first', async () => {
    const service = new StatsService(redis, worker().fetch, { now, memoryMaxEntries: 3 });
    for (const name of ['u1', 'u2', 'u3', 'u4']) {
      await store(name);
      await service.get(name);
      clock += 10;
    }
    expect(['u1', 'u2', 'u3', 'u4'].map((name) => service.peek(name) !== undefined)).to.deep.equal([false, true, true, true]);
  });

  it('when a held copy is older than 1 s, then get() reads Redis again and sees the new entry', async () => {
    await store('fay');
    const service = new StatsService(redis, worker().fetch, { now });
    await service.get('fay');
    await redis.set(keys.stats('fay'), body('fay', '2026-11-21T00:30:00.000Z'), 'KEEPTTL');
    clock += 500;
    expect(text(await service.get('fay'))).to.equal(body('fay'));
    clock += 500;
    expect(text(await service.get('fay'))).to.equal(body('fay', '2026-11-21T00:30:00.000Z'));
  });
});

/** How many PTTL commands Redis has run: StatsService's lookup is the only code that sends PTTL. */
async function pttlCalls(redis: Redis): Promise<number> {
  const info = await redis.info('commandstats');
  return Number(/cmdstat_pttl:calls=(\d+)/.exec(info)?.[1] ?? 0);
}

/** The error `promise` rejects with; fails the test if it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
