/**
 * Deploys: the platform sends SIGTERM to web processes serving live keep-alive traffic, and to
 * workers with jobs in hand. Nothing a client already sent may fail, and nothing is lost.
 */
import { expect } from 'chai';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { sleep, startDeployment, type Deployment } from './support/deployment.js';
import { startLoad, summarize } from './support/load.js';
import { record } from './support/report.js';

describe('deploys', function () {
  this.timeout(120_000);
  let redis: TestRedis;
  let deployment: Deployment | undefined;

  // A Redis of each deployment's own, as a fresh app gets.
  beforeEach(async () => {
    redis = await startTestRedis({ appendOnly: true });
  });
  afterEach(async () => {
    await deployment?.stop();
    deployment = undefined;
    await redis.stop();
  });

  for (const concurrency of [1, 2]) {
    it(`when the web dyno (WEB_CONCURRENCY=${concurrency}) gets SIGTERM under 16 keep-alive clients, then every request it received is answered, clients are told to leave, and it exits 0 within 25 s`, async function () {
      // Two deploys, each up to 25 s of drain plus a fresh Redis and Procfile processes, which
      // take a while to start on a machine shared with other work.
      this.timeout(300_000);
      let sent = 0;
      let noListener = 0;
      let drainMs = 0;
      // Twice: the race this guards against struck about one deploy in two.
      for (let round = 0; round < 2; round += 1) {
        deployment = await startDeployment({
          redisEnv: { REDIS_URL: redis.url },
          env: { WEB_CONCURRENCY: String(concurrency) },
          readyTimeoutMs: 90_000,
        });
        const load = startLoad({ baseUrl: deployment.apiUrl, paths: ['/api/market/news?limit=50'], clients: 16 });
        await sleep(1500);
        const signalledAt = Date.now();
        const exit = await deployment.webs[0]!.stop('SIGTERM', 30_000);
        const outcomes = await load.stop();
        const summary = summarize(outcomes, 0, Date.now());

        expect(
          summary.errors.map((o) => `${o.status} ${o.error ?? ''} reused=${o.reused}`),
          'requests lost or failed',
        ).to.deep.equal([]);
        expect(exit.signal, 'ended by a signal, not by itself').to.equal(null);
        expect(exit.code).to.equal(0);
        expect(exit.ms).to.be.below(25_000);
        const toldToLeave = outcomes.filter((o) => o.close && o.at >= signalledAt - 1000);
        expect(toldToLeave.length, 'responses with Connection: close while draining').to.be.at.least(16);
        sent += summary.sent;
        noListener += summary.refused;
        drainMs = Math.max(drainMs, exit.ms);
        await deployment.stop();
        deployment = undefined;
        await redis.stop();
        redis = await startTestRedis({ appendOnly: true });
      }
      record({
        fault: `web SIGTERM under keep-alive load, ${concurrency} web process${concurrency > 1 ? 'es' : ''} (x2)`,
        requests: sent,
        errors: 0,
        degradedSeconds: 0,
        usersLost: 0,
        jobsLost: 0,
        note: `every request on an open socket answered, with Connection: close; exit 0 within ${(drainMs / 1000).toFixed(1)} s; ${noListener} new connections the clients opened afterwards found no listener (no successor dyno here: a router sends them to one)`,
      });
    });
  }

  it('when a worker gets SIGTERM with stats jobs in hand, then every waiting stats request is answered (by it or the other worker) and it exits 0', async () => {
    deployment = await startDeployment({ redisEnv: { REDIS_URL: redis.url }, workers: 2 });
    deployment.sim.setFaults({ latencyMs: 1500, paths: ['/v1/accounts'] });
    const names = deployment.sim.trackedUsernames().slice(0, 30);
    const requests = names.map((name) => fetch(`${deployment!.apiUrl}/api/market/stats/${name}`).then((r) => r.status));
    await sleep(500);
    const exit = await deployment.workers[0]!.stop('SIGTERM', 30_000);
    const statuses = await Promise.all(requests);

    expect(
      statuses.filter((s) => s !== 200),
      'stats requests that failed',
    ).to.deep.equal([]);
    expect(exit.code).to.equal(0);
    expect(exit.ms).to.be.below(25_000);
    record({
      fault: 'worker SIGTERM with 30 stats jobs in flight (2 workers)',
      requests: statuses.length,
      errors: 0,
      degradedSeconds: 0,
      usersLost: 0,
      jobsLost: 0,
      note: `active jobs finished before exit (${(exit.ms / 1000).toFixed(1)} s), waiting ones went to the other worker`,
    });
  });
});
