/**
 * Redis goes away under a running deployment (maintenance restart, crash, an operator's
 * FLUSHALL) and comes back with or without its data. No process is restarted: every connection
 * role must be serving again within 5 s of Redis answering, and cached reads never fail.
 */
import { expect } from 'chai';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { queuePrefix } from '../../shared/keyspace.js';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import { queueBaseOptions, REFRESH_QUEUE } from '../../shared/queues.js';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { ADMIN, sleep, startDeployment, until, type Deployment } from './support/deployment.js';
import { outage, startLoad, summarize, watch } from './support/load.js';
import { record } from './support/report.js';

const RECOVERY_MS = 5000;

describe('Redis outages', function () {
  this.timeout(180_000);
  let redis: TestRedis;
  let deployment: Deployment;
  let names: string[];
  const api = (path: string, init?: RequestInit) => fetch(`${deployment.apiUrl}${path}`, init);

  beforeEach(async () => {
    redis = await startTestRedis({ appendOnly: true });
    deployment = await startDeployment({ redisEnv: { REDIS_URL: redis.url }, env: { REFRESH_INTERVAL: '4s' } });
    names = deployment.sim.trackedUsernames();
  });
  afterEach(async () => {
    await deployment.stop();
    await redis.stop();
  });

  let connectionsBefore = 0;
  /** The clients Redis sees, but for the one asking. */
  async function connections(): Promise<Record<string, string>[]> {
    const admin = new Redis(redis.url);
    const list = String(await admin.client('LIST').finally(() => admin.disconnect()));
    return list
      .split('\n')
      .filter((line) => line.includes('name=') && !line.includes('cmd=client|list'))
      .map((line) => Object.fromEntries(line.split(' ').map((field) => field.split('='))) as Record<string, string>);
  }

  /**
   * Each feature, probed until it works, in parallel; the ms from `since` to its first success.
   * Every probe needs a different connection role, so a role that stays broken shows by name.
   */
  async function timeToRecover(since: number, known: string): Promise<Record<string, number>> {
    let fresh = 100;
    const token = async () => (await deployment.login(ADMIN.email, ADMIN.password)).token ?? '';
    const probes: Record<string, () => Promise<boolean>> = {
      'stats hit (API fast reads)': async () => (await api(`/api/market/stats/${known}`)).status === 200,
      'login (API fast reads and writes)': async () => (await deployment.login(ADMIN.email, ADMIN.password)).status === 200,
      // A miss needs the producer, the worker's blocking and command connections, and the API's
      // QueueEvents: without the completion event the API would wait its full 9 s.
      'stats miss (producer, worker, QueueEvents)': async () => {
        const started = Date.now();
        const response = await api(`/api/market/stats/${names[(fresh += 1) % names.length]}`);
        return response.status === 200 && Date.now() - started < 3000;
      },
      'admin refresh (producer)': async () =>
        (await api('/api/admin/refresh', { method: 'POST', headers: { authorization: `Bearer ${await token()}` } })).status === 202,
      // A run the scheduler made (its job id says so), not the admin refresh's.
      'scheduled refresh (job scheduler)': async () => {
        // BullMQ does not close a connection it was given: this check closes its own.
        const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
        const queue = new Queue(REFRESH_QUEUE, { ...queueBaseOptions(), connection });
        const done = await queue.getJobs(['completed']).finally(async () => {
          await queue.close();
          connection.disconnect();
        });
        return done.some((job) => String(job.id).startsWith('repeat:refresh-trending') && (job.finishedOn ?? 0) > since);
      },
      // Every connection of every role is back on Redis: as many as before the outage, the named
      // roles among them, the QueueEvents reading their streams, the subscriber subscribed.
      'all connection roles (CLIENT LIST)': async () => {
        const clients = await connections();
        const named = (name: string) => clients.some((c) => c.name === `market-signals:${name}`);
        const roles = ['api', 'api-refresh-producer', 'api-stats-producer', 'worker', 'worker-refresh', 'worker-stats', 'worker-scheduler'];
        const subscribed = clients.some((c) => c.name === 'market-signals:api-subscriber' && c.sub === '1');
        const reading = clients.filter((c) => c.cmd === 'xread').length;
        return clients.length >= connectionsBefore && roles.every(named) && subscribed && reading >= 2;
      },
    };
    const times = await Promise.all(
      Object.entries(probes).map(async ([name, probe]) => {
        await until(probe, 30_000, name);
        return [name, Date.now() - since] as const;
      }),
    );
    return Object.fromEntries(times);
  }

  for (const how of ['SIGKILL', 'SIGTERM'] as const) {
    it(`when Redis is stopped (${how}) and started again with its AOF data, then cached reads never fail and every feature works again within 5 s`, async () => {
      const known = names[0]!;
      expect((await api(`/api/market/stats/${known}`)).status).to.equal(200);
      const load = startLoad({
        baseUrl: deployment.apiUrl,
        paths: ['/api/market/trending', '/api/market/news?limit=20', '/api/market/trending-cas'],
        clients: 6,
        pauseMs: 20,
      });
      // Clients of what needs Redis: logins, and lookups of names the index does not know (each one a job).
      let unknown = 0;
      const logins = watch(async () => (await deployment.login(ADMIN.email, ADMIN.password)).status === 200);
      const misses = watch(async () => (await api(`/api/market/stats/nb_${Date.now() % 1e6}_${(unknown += 1)}`)).status === 404);
      await sleep(500);
      connectionsBefore = (await connections()).length;
      const downAt = Date.now();
      await redis.stop(how);
      await sleep(3000);
      await redis.start();
      const backAt = Date.now();
      const recovery = await timeToRecover(backAt, known);
      const outcomes = await load.stop();
      const attempts = [...(await logins.stop()), ...(await misses.stop())].filter((a) => a.at >= downAt);
      const summary = summarize(outcomes, downAt, Date.now());

      for (const [feature, ms] of Object.entries(recovery)) expect(ms, feature).to.be.at.most(RECOVERY_MS);
      expect(summary.errors.length, 'cached reads that failed').to.equal(0);
      const slowest = Math.max(...Object.values(recovery));
      record({
        fault: `Redis down 3 s (${how}) and back with its data`,
        requests: summary.sent + attempts.length,
        errors: attempts.filter((a) => !a.ok).length,
        degradedSeconds: Math.max(outage(attempts, downAt), backAt - downAt + slowest) / 1000,
        usersLost: 0,
        jobsLost: 0,
        note: `cached reads 200 throughout (${summary.sent}); logins and stats lookups 503 Service unavailable with Retry-After while Redis was down; every feature back ${(slowest / 1000).toFixed(1)} s after Redis (${Object.entries(
          recovery,
        )
          .map(([f, ms]) => `${f.split(' (')[0]} ${(ms / 1000).toFixed(1)} s`)
          .join(', ')})`,
      });
    });
  }

  it('when Redis comes back empty, then snapshots and schedules come back by themselves, /readyz names the empty user store, and users restored from an export log in', async () => {
    const exported = deployment.users(['export']);
    expect(exported.status, exported.output).to.equal(0);
    const load = startLoad({
      baseUrl: deployment.apiUrl,
      paths: ['/api/market/trending', '/api/market/news?limit=20'],
      clients: 4,
      pauseMs: 20,
    });
    const logins = watch(async () => (await deployment.login(ADMIN.email, ADMIN.password)).status === 200);
    const downAt = Date.now();
    await redis.stop('SIGKILL');
    await sleep(1000);
    await redis.start({ empty: true });
    const client = new Redis(redis.url);
    const snapshotsBack = await until(
      async () =>
        (await Promise.all(
          [snapshotKeys.snapshot('trending'), snapshotKeys.snapshot('news'), snapshotKeys.snapshot('trending-cas')].map((key) =>
            client.exists(key),
          ),
        ).then((found) => found.reduce((a, b) => a + b, 0))) === 3,
      30_000,
      'snapshots',
    );
    const ready = await api('/readyz');
    expect(ready.status).to.equal(503);
    expect(((await ready.json()) as { error: string }).error).to.match(/user store is empty/);
    expect((await deployment.login(ADMIN.email, ADMIN.password)).status).to.equal(401);

    const restored = deployment.users(['import'], exported.output);
    expect(restored.status, restored.output).to.equal(0);
    expect((await deployment.login(ADMIN.email, ADMIN.password)).status).to.equal(200);
    await deployment.waitReady(5000);
    const outcomes = await load.stop();
    const attempts = (await logins.stop()).filter((a) => a.at >= downAt);
    const summary = summarize(outcomes, downAt, Date.now());
    client.disconnect();
    expect(summary.errors.length, 'cached reads that failed').to.equal(0);
    record({
      fault: 'Redis down 1 s and back empty (no persistence), users restored from a backup',
      requests: summary.sent + attempts.length,
      errors: attempts.filter((a) => !a.ok).length,
      degradedSeconds: outage(attempts, downAt) / 1000,
      usersLost: 0,
      jobsLost: 0,
      note: `cached reads 200 throughout; snapshots and schedules rebuilt ${(snapshotsBack / 1000).toFixed(1)} s after Redis; logins 503 while down, then 401 until the operator ran \`users import\` (the degraded time includes that step); meanwhile /readyz 503 names the empty user store`,
    });
  });

  it('when Redis is flushed behind live connections, then the worker re-creates the schedules within a minute', async () => {
    const client = new Redis(redis.url);
    await client.flushall();
    const took = await until(
      async () =>
        (await client.exists(
          ...['refresh-trending', 'refresh-news', 'refresh-trending-cas'].map((job) => `${queuePrefix()}:refresh:repeat:${job}`),
        )) === 3,
      60_000,
      'schedules',
    );
    await until(async () => (await client.exists(snapshotKeys.snapshot('trending'))) === 1, 30_000, 'a refreshed snapshot');
    client.disconnect();
    expect(took).to.be.below(60_000);
  });
});
