import { expect } from 'chai';
import { Redis } from 'ioredis';
import { Writable } from 'node:stream';
import pino from 'pino';
import { startSimulator, type Simulator } from '../../apps/index-sim/src/server.js';
import { createIndexClient } from '../../apps/worker/src/providers/index-client.js';
import { startWorker } from '../../apps/worker/src/worker.js';
import type { Logger } from '../../shared/logger.js';
import { queuePrefix, untaggedUsersKey } from '../../shared/keyspace.js';
import { watchRedisPolicy } from '../../shared/redis-policy.js';
import { runTs } from '../api/auth/helpers.js';
import { startTestRedis, startTestRedisCluster, type TestRedis, type TestRedisCluster } from '../support/redis-server.js';
import { eventually } from '../support/stack.js';

/** A logger whose lines the test can read. */
function capturingLogger(): { logger: Logger; lines: () => { level: number; msg: string }[] } {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), lines: () => lines };
}

/**
 * Starts a web or worker entry against the Redis named in `redis` (the rest of its configuration
 * valid, the index unreachable: the process must stop before it needs one) and expects it to
 * refuse to start: exit 1 and `line` as its only line on stderr.
 */
async function expectRefusal(entry: string, redis: NodeJS.ProcessEnv, line: string): Promise<void> {
  const result = await runTs(entry, [], {
    env: {
      PATH: process.env.PATH,
      JWT_SECRET: 'x'.repeat(40),
      INDEX_API_URL: 'http://127.0.0.1:9',
      PORT: '0',
      LOG_LEVEL: 'silent',
      ...redis,
    },
  });
  expect(result.code).to.equal(1);
  expect(result.stderr.trim().split('\n')).to.deep.equal([line]);
}

describe('what the service needs of each master of a Redis Cluster', function () {
  this.timeout(30_000);
  let cluster: TestRedisCluster;
  before(async () => {
    cluster = await startTestRedisCluster();
  });
  after(() => cluster.stop());

  it('when one master of three evicts (allkeys-lru) in production, then the worker refuses to run with one line naming that node', async () => {
    const evicting = cluster.nodes[1]!;
    const node = new Redis(evicting.url);
    await node.config('SET', 'maxmemory-policy', 'allkeys-lru');
    node.disconnect();
    await expectRefusal(
      'apps/worker/src/main.ts',
      { NODE_ENV: 'production', REDIS_CLUSTER_NODES: cluster.seeds },
      `Refusing to start: Redis maxmemory-policy is allkeys-lru: it would evict users and job state when memory is full; set it to noeviction (cluster node 127.0.0.1:${evicting.port})`,
    );
  });
});

describe('what the service needs of its Redis', function () {
  this.timeout(30_000);
  let redis: TestRedis;
  afterEach(() => redis.stop());

  for (const [entry, name] of [
    ['apps/worker/src/main.ts', 'worker'],
    ['apps/api/src/main.ts', 'web'],
  ] as const) {
    it(`when Redis evicts (allkeys-lru) in production, then the ${name} process refuses to run with one line`, async () => {
      redis = await startTestRedis({ args: ['--maxmemory-policy', 'allkeys-lru'] });
      await expectRefusal(
        entry,
        { NODE_ENV: 'production', REDIS_URL: redis.url },
        'Refusing to start: Redis maxmemory-policy is allkeys-lru: it would evict users and job state when memory is full; set it to noeviction',
      );
    });
  }

  for (const [entry, name] of [
    ['apps/worker/src/main.ts', 'worker'],
    ['apps/api/src/main.ts', 'web'],
  ] as const) {
    it(`when users are stored only under the untagged key names of before (an upgrade without redis:migrate), then the ${name} process refuses to run with one line naming the command`, async () => {
      redis = await startTestRedis();
      const client = new Redis(redis.url);
      await client.sadd(untaggedUsersKey(), 'ada@example.com');
      await client.quit();
      await expectRefusal(
        entry,
        { NODE_ENV: 'development', REDIS_URL: redis.url },
        'Refusing to start: Redis holds users under the key names of before Redis Cluster support (ms:users) and none under the new ones; copy them first: node dist/scripts/redis-migrate.js (README, Moving to Redis Cluster)',
      );
    });
  }

  it('when Redis evicts outside production, or persists nothing, then each is one structured warning', async () => {
    redis = await startTestRedis({ args: ['--maxmemory-policy', 'volatile-lru'] });
    const client = new Redis(redis.url);
    const { logger, lines } = capturingLogger();
    let refused = '';
    watchRedisPolicy(client, logger, { production: false, refuse: (line) => (refused = line) });
    const warnings = await eventually(
      () => {
        const found = lines().filter((line) => line.level === 40);
        return found.length === 2 ? found : undefined;
      },
      5000,
      'two warnings',
    );
    client.disconnect();
    expect(refused).to.equal('');
    expect(warnings.map((w) => w.msg)).to.have.members([
      'Redis maxmemory-policy is volatile-lru: it would evict users and job state when memory is full; set it to noeviction',
      'Redis persists nothing (no AOF, no RDB snapshots): a restart loses every user',
    ]);
  });

  describe('when Redis refuses writes (OOM) as the worker starts', () => {
    let sim: Simulator;
    before(async () => {
      sim = await startSimulator();
    });
    after(() => sim.close());

    it('then the worker logs it, keeps running, and makes the schedules once Redis has room', async () => {
      redis = await startTestRedis({ args: ['--maxmemory', '2mb'] });
      const client = new Redis(redis.url);
      // Fill Redis to its limit: every write from now on is refused with OOM.
      const filler = 'x'.repeat(10_000);
      for (let i = 0; ; i += 1) {
        const failed = await client.set(`filler:${i}`, filler).then(
          () => false,
          () => true,
        );
        if (failed) break;
      }
      const { logger, lines } = capturingLogger();
      const worker = await startWorker({
        redis: { redisUrl: redis.url, redisTlsInsecure: false },
        provider: createIndexClient({ baseUrl: sim.url, apiKey: undefined }),
        logger,
        refreshEveryMs: 1000,
      });
      try {
        expect(lines().some((line) => line.msg === 'could not ensure the refresh schedules; retrying')).to.equal(true);
        expect(await client.exists(`${queuePrefix()}:refresh:repeat:refresh-trending`)).to.equal(0);
        await client.config('SET', 'maxmemory', '0');
        await eventually(
          async () => ((await client.exists(`${queuePrefix()}:refresh:repeat:refresh-trending`)) === 1 ? true : undefined),
          10_000,
          'schedules',
        );
      } finally {
        await worker.close(1000);
        client.disconnect();
      }
    });
  });
});
