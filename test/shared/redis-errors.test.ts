import { expect } from 'chai';
import { Redis, ReplyError as IoredisReplyError } from 'ioredis';
import { RedisCommandError } from '../../shared/errors.js';
import { isRedisUnavailable, replyCode } from '../../shared/redis-errors.js';
import { execChecked } from '../../shared/redis-results.js';
import { sharedTestRedis, startTestRedis } from '../support/redis-server.js';

const ReplyError = IoredisReplyError as new (message: string) => Error;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('Redis errors, told by type', () => {
  it('when Redis replies LOADING, READONLY or OOM, then unavailable; a plain Error that says the same is not', () => {
    for (const reply of [
      'LOADING Redis is loading the dataset in memory',
      "READONLY You can't write against a read only replica.",
      'OOM command not allowed',
    ]) {
      expect(isRedisUnavailable(new ReplyError(reply)), reply).to.equal(true);
      expect(isRedisUnavailable(new Error(reply)), reply).to.equal(false);
    }
  });

  it('when a real command fails with WRONGTYPE, then its reply code is read and Redis counts as available', async () => {
    const redis = new Redis((await sharedTestRedis()).url, { protocol: 2 });
    try {
      await redis.set('redis-errors:plain', 'x');
      const error = await rejection(redis.sadd('redis-errors:plain', 'a'));
      expect(replyCode(error)).to.equal('WRONGTYPE');
      expect(isRedisUnavailable(error)).to.equal(false);
    } finally {
      await redis.del('redis-errors:plain');
      await redis.quit();
    }
  });

  it("when nothing listens, then the fast client's refusal (alone or inside a batch) and the patient client's give-up are all unavailable", async () => {
    const fast = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    const patient = new Redis({ port: 1, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    patient.on('error', () => {});
    fast.on('error', () => {});
    try {
      expect(isRedisUnavailable(await rejection(fast.get('k')))).to.equal(true);
      const batch = await rejection(execChecked(fast.pipeline().get('k')));
      expect(batch).to.be.instanceOf(RedisCommandError);
      expect(isRedisUnavailable(batch)).to.equal(true);
      const gaveUp = await rejection(patient.get('k'));
      expect(gaveUp).to.have.property('name', 'MaxRetriesPerRequestError');
      expect(isRedisUnavailable(gaveUp)).to.equal(true);
    } finally {
      fast.disconnect();
      patient.disconnect();
    }
  });

  it('when a pipelined command times out (execChecked), then unavailable: a 503, not a 500 (issue 38 item 4: seen under a stats flood)', async () => {
    const own = await startTestRedis();
    const redis = new Redis(own.url, { protocol: 2 });
    const pauser = new Redis(own.url, { protocol: 2 });
    try {
      await redis.ping();
      // The tight timeout only once connected: on a loaded machine the first PING took over 50 ms.
      redis.options.commandTimeout = 50;
      await pauser.call('CLIENT', 'PAUSE', '500', 'ALL');
      const error = await rejection(execChecked(redis.pipeline().get('redis-errors:slow').pttl('redis-errors:slow')));
      expect(error).to.be.instanceOf(RedisCommandError);
      expect(isRedisUnavailable(error)).to.equal(true);
    } finally {
      redis.disconnect();
      pauser.disconnect();
      await own.stop();
    }
  });

  it('when the error is not an Error, or an unrelated one, then not unavailable and no reply code', () => {
    expect(isRedisUnavailable('LOADING')).to.equal(false);
    expect(isRedisUnavailable(new TypeError('x is undefined'))).to.equal(false);
    expect(replyCode(new Error('BUSYKEY Target key name already exists.'))).to.equal(undefined);
  });
});
