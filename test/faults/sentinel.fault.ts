/**
 * High availability: the Redis master dies (SIGKILL) under load and Sentinel promotes the
 * replica; or an operator fails over on purpose, demoting the master under live connections
 * (READONLY). Every process follows the new master by itself.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { ADMIN, sleep, startDeployment, until, type Deployment } from './support/deployment.js';
import { outage, startLoad, summarize, watch } from './support/load.js';
import { killMasterUnderLoad, lookupNames, type LookupNames } from './support/master-failover.js';
import { record } from './support/report.js';
import { MASTER_NAME, NODE_PASSWORD, startRedisHA, type RedisHA } from './support/sentinel.js';

const PERIOD_MS = 5000;

describe('Redis Sentinel failover', function () {
  this.timeout(180_000);
  let ha: RedisHA;
  let deployment: Deployment;
  let names: LookupNames;
  const api = (path: string, init?: RequestInit) => fetch(`${deployment.apiUrl}${path}`, init);

  beforeEach(async () => {
    ha = await startRedisHA();
    deployment = await startDeployment({ redisEnv: ha.env, workers: 2, env: { REFRESH_INTERVAL: `${PERIOD_MS / 1000}s` } });
    names = lookupNames(deployment, 'nb');
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') process.stdout.write(`${deployment.logTail()}\n`);
    await deployment?.stop();
    await ha?.stop();
  });

  it('when the master is killed under load, then cached reads keep answering, stats and login are back within 30 s, no acknowledged user change is lost and the schedules keep one run per period', async () => {
    const changed = 'a brand new passphrase';
    const passwd = deployment.users(['passwd', ADMIN.email], changed);
    expect(passwd.status, passwd.output).to.equal(0);

    const failover = await killMasterUnderLoad({
      deployment,
      periodMs: PERIOD_MS,
      password: changed,
      names,
      master: () => ha.master(),
      // The kill lands while a scheduled refresh is fetching (the index answers trending in 1 s):
      // its answer must be written on the new master, not fetched again by a retry.
      beforeKill: async (runs) => {
        deployment.sim.setFaults({ latencyMs: 1000, paths: ['/v1/trending'] });
        const fetching = runs.length;
        await until(() => Promise.resolve(runs.length > fetching), 2 * PERIOD_MS, 'a scheduled refresh fetching');
      },
    });
    const { loginOutageMs, missOutageMs, statsBackMs, loginBackMs } = failover;
    record({
      fault: 'Sentinel failover: master SIGKILL under load (2 workers)',
      requests: failover.requests,
      errors: failover.errors,
      degradedSeconds: Math.max(loginOutageMs, missOutageMs) / 1000,
      usersLost: 0,
      jobsLost: 0,
      note: `cached reads 200 throughout; logins failed for ${(loginOutageMs / 1000).toFixed(1)} s and stats misses for ${(missOutageMs / 1000).toFixed(1)} s after the kill (Sentinel notices after 1 s, then promotes); stats back ${(statsBackMs / 1000).toFixed(1)} s, login ${(loginBackMs / 1000).toFixed(1)} s after it; ${failover.periods} scheduled periods, one run each; the password changed and the user added just before the kill both log in`,
    });
  });

  it('when an operator fails over on purpose, then connections to the demoted master (READONLY) move to the new one and writes work again', async () => {
    const before = await ha.master();
    const sentinelPort = Number(ha.env.REDIS_SENTINELS!.split(',')[0]!.split(':')[1]);
    const sentinel = new Redis({ port: sentinelPort, host: '127.0.0.1' });
    const load = startLoad({ baseUrl: deployment.apiUrl, paths: ['/api/market/trending'], clients: 4, pauseMs: 20 });
    const logins = watch(async () => (await deployment.login(ADMIN.email, ADMIN.password)).status === 200);
    await sleep(1000);
    const at = Date.now();
    await sentinel.call('SENTINEL', 'FAILOVER', MASTER_NAME);
    await until(async () => (await ha.master()).port !== before.port, 20_000, 'the promotion');
    // The demoted node is a replica now: a write there answers READONLY.
    await until(
      async () => {
        const node = new Redis({ port: before.port, host: '127.0.0.1', password: NODE_PASSWORD });
        node.on('error', () => {});
        const role = await node.role();
        node.disconnect();
        return role[0] === 'slave';
      },
      20_000,
      'the demotion',
    );
    const back = await until(
      async () =>
        (await deployment.login(ADMIN.email, ADMIN.password)).status === 200 &&
        (await api(`/api/market/stats/${names.tracked()}`)).status === 200,
      30_000,
      'writes after the failover',
    );
    await sleep(2000);
    const attempts = await logins.stop();
    const summary = summarize(await load.stop(), at, Date.now());
    sentinel.disconnect();
    expect(summary.errors.length, 'cached reads that failed').to.equal(0);
    const loginOutage = outage(attempts, at);
    record({
      fault: 'Sentinel manual failover: master demoted under live connections (READONLY)',
      requests: summary.sent + attempts.filter((a) => a.at >= at).length,
      errors: attempts.filter((a) => a.at >= at && !a.ok).length,
      degradedSeconds: loginOutage / 1000,
      usersLost: 0,
      jobsLost: 0,
      note: `cached reads 200 throughout; logins failed for ${(loginOutage / 1000).toFixed(1)} s; writes and stats misses work on the new master ${(back / 1000).toFixed(1)} s after the promotion`,
    });
  });
});
