/**
 * A command that fails inside a MULTI, a pipeline or a script must surface as an error, never
 * as success or as "absent": ioredis resolves `exec()` with the error inside the reply array.
 * Each failure is real: a key of the wrong type placed where the write or read lands (WRONGTYPE).
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { UserStore } from '../../apps/api/src/auth/users.js';
import { RedisCommandError } from '../../shared/errors.js';
import { writeRefresh } from '../../shared/history/history-store.js';
import { keys } from '../../shared/keyspace.js';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import { execChecked } from '../../shared/redis-results.js';
import { readSnapshot } from '../../shared/snapshot-store.js';
import { HOUR_MS } from '../../shared/durations.js';
import { sharedTestRedis } from '../support/redis-server.js';
import { freshKeyPrefix } from '../support/shared-redis.js';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection, got success');
}

describe('Redis failures inside a batch or a script', () => {
  let redis: Redis;

  before(async () => {
    redis = new Redis((await sharedTestRedis()).url, { protocol: 2 });
  });
  beforeEach(async () => {
    // The keyspace's keys under a prefix of this test's own; the plain keys below are this file's alone.
    freshKeyPrefix();
    await redis.del('plain', 'a', 'test:history:first', 'test:history:second');
  });
  after(() => redis.quit());

  describe('execChecked', () => {
    it('when one command of a pipeline fails, then it throws naming that command and what Redis said', async () => {
      await redis.set('plain', 'x');
      const error = await rejection(execChecked(redis.pipeline().get('plain').sadd('plain', 'a').get('plain')));
      expect(error).to.be.instanceOf(RedisCommandError);
      const failed = error as RedisCommandError;
      expect(failed.commandIndex).to.equal(1);
      expect(failed.command).to.equal('sadd');
      expect(failed.redisMessage).to.match(/^WRONGTYPE /);
      expect(failed.message).to.match(/^WRONGTYPE .*command 1, SADD/);
    });

    it('when every command of a MULTI succeeds, then it returns the replies in order', async () => {
      expect(await execChecked(redis.multi().set('a', '1').get('a').del('a'))).to.deep.equal(['OK', '1', 1]);
    });
  });

  describe('readSnapshot', () => {
    it('when the snapshot key holds another type, then the read fails instead of reporting the snapshot absent', async () => {
      await redis.hset(snapshotKeys.snapshot('trending'), 'not', 'a string');
      const error = await rejection(readSnapshot(redis, 'trending'));
      expect(error).to.be.instanceOf(RedisCommandError);
      expect((error as RedisCommandError).redisMessage).to.match(/^WRONGTYPE /);
    });

    it('when the snapshot is absent, then it is null', async () => {
      expect(await readSnapshot(redis, 'trending')).to.equal(null);
    });
  });

  describe('UserStore', () => {
    const record = {
      id: '00000000-0000-4000-8000-000000000001',
      email: 'ann@example.com',
      role: 'user',
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
      createdAt: '2026-01-01T00:00:00.000Z',
    };

    it('when the set of users cannot be written, then remove() fails instead of reporting the user removed', async () => {
      await redis.hset(keys.user(record.email), record);
      await redis.set(keys.users(), 'not a set');
      const error = await rejection(new UserStore(redis).remove(record.email));
      expect(error).to.be.instanceOf(RedisCommandError);
      expect((error as RedisCommandError).commandIndex).to.equal(1); // SREM, after the DEL
    });

    it('when the set of users cannot be written, then restore() fails instead of reporting the user restored', async () => {
      await redis.set(keys.users(), 'not a set');
      const error = await rejection(new UserStore(redis).restore(record));
      expect(error).to.be.instanceOf(RedisCommandError);
      expect((error as RedisCommandError).commandIndex).to.equal(2); // SADD, after DEL and HSET
    });

    it('when a user hash cannot be read, then list() and dump() fail', async () => {
      await redis.sadd(keys.users(), record.email);
      await redis.set(keys.user(record.email), 'not a hash');
      const store = new UserStore(redis);
      expect(await rejection(store.list())).to.be.instanceOf(RedisCommandError);
      expect(await rejection(store.dump())).to.be.instanceOf(RedisCommandError);
    });
  });

  describe('writeRefresh (the refresh script)', () => {
    const atMs = Date.UTC(2026, 0, 1);
    const write = {
      atMs,
      snapshots: [{ name: 'trending' as const, body: '{"data":[],"cachedAt":"2026-01-01T00:00:00.000Z"}', version: 'v1' }],
      entries: [
        { key: 'test:history:first', fields: ['b', 'body'] },
        { key: 'test:history:second', fields: ['n', 1] },
      ],
    };

    it('when a history stream cannot be appended to, then the refresh fails and writes nothing', async () => {
      await redis.set('test:history:second', 'not a stream');
      const error = await rejection(writeRefresh(redis, write, HOUR_MS));
      expect(error.message).to.match(/WRONGTYPE/);
      expect(await redis.exists(snapshotKeys.snapshot('trending'), 'test:history:first')).to.equal(0);
    });

    it('when a later stream already holds an entry at that time, then the refresh fails and writes nothing', async () => {
      await redis.xadd('test:history:second', `${atMs}-0`, 'n', 0);
      const error = await rejection(writeRefresh(redis, write, HOUR_MS));
      expect(error.message).to.match(/test:history:second already holds an entry/);
      expect(await redis.exists(snapshotKeys.snapshot('trending'), 'test:history:first')).to.equal(0);
    });

    it('when every write succeeds, then each stream has its entry and a replay of the same refresh is refused', async () => {
      expect(await writeRefresh(redis, write, HOUR_MS)).to.equal(true);
      expect(await redis.xlen('test:history:first')).to.equal(1);
      expect(await redis.xlen('test:history:second')).to.equal(1);
      expect(await writeRefresh(redis, write, HOUR_MS)).to.equal(false);
    });

    it('when one stream is listed twice, then its first entry is kept and the refresh succeeds', async () => {
      const twice = { ...write, entries: [...write.entries, { key: 'test:history:second', fields: ['n', 2] }] };
      expect(await writeRefresh(redis, twice, HOUR_MS)).to.equal(true);
      const entries = await redis.xrange('test:history:second', '-', '+');
      expect(entries.map(([, fields]) => fields)).to.deep.equal([['n', '1']]);
    });
  });
});
