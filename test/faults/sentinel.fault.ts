/**
 * High availability: the Redis master dies (SIGKILL) under load and Sentinel promotes the
 * replica; or an operator fails over on purpose, demoting the master under live connections
 * (READONLY). Every process follows the new master by itself.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { ADMIN, sleep, startDeployment, until, type Deployment } from './support/deployment.js';
import { outage, startLoad, summarize, watch } from './support/load.js';
import { record } from './support/report.js';
import { MASTER_NAME, NODE_PASSWORD, startRedisHA, type RedisHA } from './support/sentinel.js';

const PERIOD_MS = 5000;

describe('Redis Sentinel failover', function () {
  this.timeout(180_000);
  let ha: RedisHA;
  let deployment: Deployment;
  let fresh = 0;
  const api = (path: string, init?: RequestInit) => fetch(`${deployment.apiUrl}${path}`, init);
  /** A tracked username not asked for yet (each a stats miss: a job for the worker). */
  const newName = () => deployment.sim.trackedUsernames()[(fresh += 1) % 300]!;
  /** A name the index does not know: a miss every time, answered 404 once the worker has asked upstream. */
  let unknown = 0;
  const unknownName = () => `nb_${Date.now() % 1e6}_${(unknown += 1)}`;

  beforeEach(async () => {
    ha = await startRedisHA();
    deployment = await startDeployment({ redisEnv: ha.env, workers: 2, env: { REFRESH_INTERVAL: `${PERIOD_MS / 1000}s` } });
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
    const added = deployment.users(['add', 'late@example.com'], 'added just before');
    expect(added.status, added.output).to.equal(0);

    // When each scheduled trending refresh reached the upstream.
    const runs: number[] = [];
    let seen = deployment.sim.stats()['/v1/trending/tokens'] ?? 0;
    const runWatch = setInterval(() => {
      const now = deployment.sim.stats()['/v1/trending/tokens'] ?? 0;
      for (; seen < now; seen += 1) runs.push(Date.now());
    }, 50);

    const load = startLoad({
      baseUrl: deployment.apiUrl,
      paths: ['/api/market/trending', '/api/market/news?limit=20', '/api/market/trending-cas'],
      clients: 6,
      pauseMs: 20,
    });
    const logins = watch(async () => (await deployment.login(ADMIN.email, changed)).status === 200);
    const misses = watch(async () => (await api(`/api/market/stats/${unknownName()}`)).status === 404);
    await sleep(3 * PERIOD_MS);

    // The kill lands while a scheduled refresh is fetching (the index answers trending in 1 s):
    // its answer must be written on the new master, not fetched again by a retry.
    deployment.sim.setFaults({ latencyMs: 1000, paths: ['/v1/trending'] });
    const fetching = runs.length;
    await until(() => Promise.resolve(runs.length > fetching), 2 * PERIOD_MS, 'a scheduled refresh fetching');
    const master = await ha.master();
    const killedAt = Date.now();
    await master.stop('SIGKILL');
    const statsBack = await until(
      async () => (await api(`/api/market/stats/${newName()}`)).status === 200,
      30_000,
      'a stats miss after the failover',
    );
    const loginBack = await until(
      async () => (await deployment.login(ADMIN.email, changed)).status === 200,
      30_000,
      'login after the failover',
    );
    await sleep(4 * PERIOD_MS);

    clearInterval(runWatch);
    const outcomes = await load.stop();
    const loginAttempts = await logins.stop();
    const missAttempts = await misses.stop();
    const summary = summarize(outcomes, killedAt, Date.now());
    const promoted = await ha.master();

    expect(promoted.port).to.not.equal(master.port);
    expect(summary.errors.length, 'cached reads that failed').to.equal(0);
    expect(statsBack).to.be.below(30_000);
    expect((await deployment.login('late@example.com', 'added just before')).status, 'a user added before the kill').to.equal(200);
    // One scheduled run per period slot: none lost, none doubled (the slots are aligned to the period).
    const slots = new Map<number, number>();
    for (const at of runs) slots.set(Math.floor(at / PERIOD_MS), (slots.get(Math.floor(at / PERIOD_MS)) ?? 0) + 1);
    const keys = [...slots.keys()].sort((a, b) => a - b);
    const perSlot = keys.slice(1, -1).map((k) => slots.get(k) ?? 0);
    const expected = keys.length > 2 ? keys[keys.length - 1]! - keys[0]! - 1 : 0;
    expect(
      perSlot.filter((n) => n !== 1),
      `runs per slot ${JSON.stringify(perSlot)}`,
    ).to.deep.equal([]);
    expect(perSlot.length, 'slots with a run').to.equal(expected);

    const loginOutage = outage(loginAttempts, killedAt);
    const missOutage = outage(missAttempts, killedAt);
    record({
      fault: 'Sentinel failover: master SIGKILL under load (2 workers)',
      requests: summary.sent + loginAttempts.filter((a) => a.at >= killedAt).length + missAttempts.filter((a) => a.at >= killedAt).length,
      errors: [...loginAttempts, ...missAttempts].filter((a) => a.at >= killedAt && !a.ok).length,
      degradedSeconds: Math.max(loginOutage, missOutage) / 1000,
      usersLost: 0,
      jobsLost: 0,
      note: `cached reads 200 throughout; logins failed for ${(loginOutage / 1000).toFixed(1)} s and stats misses for ${(missOutage / 1000).toFixed(1)} s after the kill (Sentinel notices after 1 s, then promotes); stats back ${(statsBack / 1000).toFixed(1)} s, login ${(loginBack / 1000).toFixed(1)} s after it; ${perSlot.length} scheduled periods, one run each; the password changed and the user added just before the kill both log in`,
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
        (await api(`/api/market/stats/${newName()}`)).status === 200,
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
