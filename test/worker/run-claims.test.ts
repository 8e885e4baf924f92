import { expect } from 'chai';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { claimAttempt, refreshOutcomes } from '../../apps/worker/src/refresh-outcomes.js';
import { keys } from '../../shared/keyspace.js';
import { queueBaseOptions } from '../../shared/queues.js';
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

  describe("when BullMQ cannot record a job's completion after its run stored what it fetched", () => {
    let server: TestRedis;
    let admin: Redis;
    const connections: Redis[] = [];

    before(async () => {
      server = await startTestRedis();
      admin = new Redis(server.url);
      // BullMQ's connections log in as a user of their own, so its writes can be refused while ours are not.
      await admin.call('ACL', 'SETUSER', 'bull', 'on', '>bull-password', '~*', '&*', '+@all');
    });
    after(async () => {
      for (const connection of connections) connection.disconnect();
      admin.disconnect();
      await server.stop();
    });

    for (const name of ['refresh-trending', 'fetch-stats']) {
      it(`then BullMQ runs the job again and that run ends without fetching (${name})`, async () => {
        const bullmq = () => {
          const connection = new Redis(`redis://bull:bull-password@127.0.0.1:${server.port}`, { maxRetriesPerRequest: null });
          connections.push(connection);
          return connection;
        };
        const withOutcome = refreshOutcomes({ redis: admin, logger, count: () => {}, firstBackoffMs: 1000, intervalMs: () => 60_000 });
        let fetches = 0;
        const refused: string[] = [];
        const queue = new Queue(name, { ...queueBaseOptions(), connection: bullmq() });
        const worker = new Worker(
          name,
          (job: Job) =>
            withOutcome(job, async () => {
              fetches += 1;
              // The refresh is stored; then Redis refuses BullMQ's writes, as a Cluster does through a failover.
              if (fetches === 1) await admin.call('ACL', 'SETUSER', 'bull', '-@write');
              return { items: 1 };
            }),
          { ...queueBaseOptions(), connection: bullmq(), lockDuration: 1000, stalledInterval: 500 },
        );
        worker.on('error', (error) => {
          refused.push(error.message);
          void admin.call('ACL', 'SETUSER', 'bull', '+@write');
        });
        try {
          const job = await queue.add(name, {}, { attempts: 3, backoff: { type: 'fixed', delay: 100 } });
          const result = await new Promise<unknown>((resolve) =>
            worker.on('completed', (done, value) => {
              if (done.id === job.id) resolve(value);
            }),
          );
          expect(refused.join('\n'), "BullMQ's completion was refused").to.match(/can't run this command/);
          expect(result).to.deep.equal({ skipped: 'stored already' });
          expect(fetches, 'upstream calls').to.equal(1);
        } finally {
          await worker.close();
          await queue.close();
        }
      });
    }
  });
});
