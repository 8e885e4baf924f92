import { expect } from 'chai';
import { Redis } from 'ioredis';
import { claimAttempt } from '../../apps/worker/src/refresh-outcomes.js';
import { keys } from '../../shared/keyspace.js';
import { pino } from 'pino';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { sharedRedis } from '../support/shared-redis.js';

const logger = pino({ level: 'silent' });
const run = (id: string, attemptsStarted: number) => ({ id, name: 'refresh-trending', attemptsStarted });

describe('a refresh run claims its attempt before it fetches (apps/worker/src/refresh-outcomes.ts)', () => {
  it('when the same hand-out of a run comes again (a failover replayed it), then it does not fetch; a retry or a takeover (the next attempt) does', async () => {
    const redis = (await sharedRedis()).client();
    try {
      expect(await claimAttempt(redis, run('repeat:trending:1000', 1), 60_000, logger), 'first hand-out').to.equal(true);
      expect(await claimAttempt(redis, run('repeat:trending:1000', 1), 60_000, logger), 'the same hand-out again').to.equal(false);
      expect(await claimAttempt(redis, run('repeat:trending:1000', 2), 60_000, logger), 'the next attempt').to.equal(true);
      expect(await claimAttempt(redis, run('repeat:trending:6000', 1), 60_000, logger), 'the next period').to.equal(true);
    } finally {
      redis.disconnect();
    }
  });

  describe('when the master has a replica', () => {
    let master: TestRedis;
    let replica: TestRedis;
    let client: Redis;

    before(async () => {
      master = await startTestRedis();
      replica = await startTestRedis({ args: ['--replicaof', '127.0.0.1', String(master.port)] });
      client = new Redis(master.url);
      for (;;) {
        if (/slave0:.*state=online/.test(await client.info('replication'))) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    after(async () => {
      client.disconnect();
      await replica.stop();
      await master.stop();
    });

    it('then the run goes ahead only once the replica holds the claim and what was written before it', async () => {
      // The job's start, written on another connection (BullMQ's), while the replica is stalled.
      const bullmq = new Redis(master.url);
      await bullmq.set('job-started', '1');
      bullmq.disconnect();
      replica.freeze();
      let thawed = false;
      setTimeout(() => {
        thawed = true;
        replica.thaw();
      }, 500);
      expect(await claimAttempt(client, run('repeat:trending:2000', 1), 60_000, logger)).to.equal(true);
      expect(thawed, 'the run waited for the stalled replica').to.equal(true);
      const fromReplica = new Redis(replica.url);
      try {
        expect(await fromReplica.exists('job-started', keys.refreshClaim('repeat:trending:2000', 1))).to.equal(2);
      } finally {
        fromReplica.disconnect();
      }
    });
  });
});
