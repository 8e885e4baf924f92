/**
 * The upstream index fails and comes back; a worker dies without warning (SIGKILL: an OOM kill,
 * a lost host) with jobs in hand.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { keys } from '../../shared/keyspace.js';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { sleep, startDeployment, until, type Deployment } from './support/deployment.js';
import { startLoad, summarize } from './support/load.js';
import { record } from './support/report.js';

describe('upstream failures and worker crashes', function () {
  this.timeout(180_000);
  let redis: TestRedis;
  let deployment: Deployment;

  beforeEach(async () => {
    redis = await startTestRedis({ appendOnly: true });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') process.stdout.write(`${deployment.logTail()}\n`);
    await deployment.stop();
    await redis.stop();
  });

  it('when the upstream answers 500 for 6 s and recovers, then cached reads never fail, stats misses say 503 Upstream unavailable, then work again', async () => {
    deployment = await startDeployment({ redisEnv: { REDIS_URL: redis.url }, env: { REFRESH_INTERVAL: '2s' } });
    const names = deployment.sim.trackedUsernames();
    let next = 0;
    const load = startLoad({
      baseUrl: deployment.apiUrl,
      paths: ['/api/market/trending', '/api/market/news?limit=20', '/api/market/sentiment/SOL'],
      clients: 4,
      pauseMs: 20,
    });
    const misses = startLoad({
      baseUrl: deployment.apiUrl,
      paths: [() => `/api/market/stats/${names[(next += 1) % names.length]}`],
      clients: 1,
      pauseMs: 200,
    });
    await sleep(1000);
    const downAt = Date.now();
    deployment.sim.setFaults({ errorRate: 1 });
    await sleep(6000);
    deployment.sim.clearFaults();
    const upAt = Date.now();
    const back = await until(
      async () => (await fetch(`${deployment.apiUrl}/api/market/stats/${names[(next += 1) % names.length]}`)).status === 200,
      15_000,
      'a stats miss',
    );
    const cached = summarize(await load.stop(), downAt, Date.now());
    const lookups = summarize(await misses.stop(), downAt, Date.now(), (o) => o.status !== 200);

    expect(cached.errors.length, 'cached reads that failed').to.equal(0);
    expect(
      lookups.errors.every((o) => o.status === 503),
      'misses while the upstream is down are 503',
    ).to.equal(true);
    expect(back).to.be.below(5000);
    record({
      fault: 'upstream answers 500 for 6 s, then recovers',
      requests: cached.sent + lookups.sent,
      errors: lookups.errors.length,
      degradedSeconds: (upAt - downAt + back) / 1000,
      usersLost: 0,
      jobsLost: 0,
      note: `cached reads (trending, news, sentiment) 200 throughout, the snapshots kept; only uncached stats lookups answered 503 Upstream unavailable with Retry-After (${lookups.errors.length} of ${lookups.sent}); back ${(back / 1000).toFixed(1)} s after the upstream`,
    });
  });

  it('when a worker is SIGKILLed with stats jobs in hand, then the other worker serves new lookups at once and the killed jobs are retried, none lost', async () => {
    deployment = await startDeployment({ redisEnv: { REDIS_URL: redis.url }, workers: 2 });
    deployment.sim.setFaults({ latencyMs: 1500, paths: ['/v1/accounts'] });
    const names = deployment.sim.trackedUsernames().slice(0, 30);
    const started = Date.now();
    const requests = names.map((name) => fetch(`${deployment.apiUrl}/api/market/stats/${name}`).then((r) => r.status));
    await sleep(500);
    await deployment.workers[0]!.stop('SIGKILL');
    const killedAt = Date.now();
    const statuses = await Promise.all(requests);
    const fresh = deployment.sim.trackedUsernames()[100]!;
    const after = await fetch(`${deployment.apiUrl}/api/market/stats/${fresh}`);
    // Every job the dead worker held comes back (stalled-job recovery) and completes on the other one.
    const client = new Redis(redis.url);
    await until(
      async () => (await client.exists(...names.map((name) => keys.stats(name.toLowerCase())))) === names.length,
      60_000,
      'every killed job to be retried',
    );
    client.disconnect();

    const failed = statuses.filter((s) => s !== 200);
    const degradedSeconds = (Date.now() - killedAt) / 1000;
    expect(after.status).to.equal(200);
    expect(failed.every((s) => s === 503)).to.equal(true);
    record({
      fault: 'worker SIGKILL with 30 stats jobs in flight (2 workers)',
      requests: statuses.length + 1,
      errors: failed.length,
      degradedSeconds,
      usersLost: 0,
      jobsLost: 0,
      note: `${failed.length} of the lookups the dead worker held answered 503 Upstream unavailable (Retry-After) after the API's 9 s wait, the others were taken over in time; new lookups were served by the other worker at once; every job was stored ${((Date.now() - started) / 1000).toFixed(1)} s after the requests`,
    });
  });
});
