/**
 * Redis Cluster: three masters and three replicas of redis-server on loopback, the Procfile
 * processes on REDIS_CLUSTER_NODES. A master dies (SIGKILL) under load and its replica takes
 * over; then an operator moves a master's slots to another (`redis-cli --cluster reshard`)
 * under load, and the clients follow MOVED/ASK without an error.
 */
import { expect } from 'chai';
import { keys } from '../../shared/keyspace.js';
import { redisCli, startTestRedisCluster, type TestRedisCluster } from '../support/redis-server.js';
import { ADMIN, sleep, startDeployment, until, type Deployment } from './support/deployment.js';
import { outage, startLoad, summarize, watch } from './support/load.js';
import { record } from './support/report.js';

const PERIOD_MS = 5000;

describe('Redis Cluster: failover and slot migration', function () {
  this.timeout(240_000);
  let cluster: TestRedisCluster;
  let deployment: Deployment;
  let fresh = 0;
  const api = (path: string, init?: RequestInit) => fetch(`${deployment.apiUrl}${path}`, init);
  /** A tracked username not asked for yet (each a stats miss: a job for the worker). */
  const newName = () => deployment.sim.trackedUsernames()[(fresh += 1) % 300]!;
  /** A name the index does not know: a miss every time, answered 404 once the worker has asked upstream. */
  let unknown = 0;
  const unknownName = () => `nc_${Date.now() % 1e6}_${(unknown += 1)}`;

  beforeEach(async () => {
    cluster = await startTestRedisCluster({ masters: 3, replicas: 1, nodeTimeoutMs: 1000 });
    deployment = await startDeployment({
      redisEnv: { REDIS_CLUSTER_NODES: cluster.seeds },
      workers: 2,
      env: { REFRESH_INTERVAL: `${PERIOD_MS / 1000}s` },
    });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') process.stdout.write(`${deployment.logTail()}\n`);
    await deployment.stop();
    await cluster.stop();
  });

  it('when the master holding the users is killed under load, then cached reads keep answering, stats and login are back within 30 s, a user added just before still logs in, and the schedules keep one run per period', async () => {
    // `users add` returns once WAIT on every master has its write: the replica has the user.
    const added = deployment.users(['add', 'late@example.com'], 'added just before');
    expect(added.status, added.output).to.equal(0);

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
    const logins = watch(async () => (await deployment.login(ADMIN.email, ADMIN.password)).status === 200);
    const misses = watch(async () => (await api(`/api/market/stats/${unknownName()}`)).status === 404);
    await sleep(3 * PERIOD_MS);

    const master = await cluster.masterOf(keys.user(ADMIN.email));
    const killedAt = Date.now();
    await master.stop('SIGKILL');
    const statsBack = await until(
      async () => (await api(`/api/market/stats/${newName()}`)).status === 200,
      30_000,
      'a stats miss after the failover',
    );
    const loginBack = await until(
      async () => (await deployment.login(ADMIN.email, ADMIN.password)).status === 200,
      30_000,
      'login after the failover',
    );
    await sleep(4 * PERIOD_MS);

    clearInterval(runWatch);
    const outcomes = await load.stop();
    const loginAttempts = await logins.stop();
    const missAttempts = await misses.stop();
    const summary = summarize(outcomes, killedAt, Date.now());
    const promoted = await cluster.masterOf(keys.user(ADMIN.email));

    expect(promoted.port).to.not.equal(master.port);
    expect(summary.errors.length, 'cached reads that failed').to.equal(0);
    expect(statsBack).to.be.below(30_000);
    expect((await deployment.login('late@example.com', 'added just before')).status, 'a user added before the kill').to.equal(200);
    const slots = new Map<number, number>();
    for (const at of runs) slots.set(Math.floor(at / PERIOD_MS), (slots.get(Math.floor(at / PERIOD_MS)) ?? 0) + 1);
    const periods = [...slots.keys()].sort((a, b) => a - b);
    const perSlot = periods.slice(1, -1).map((k) => slots.get(k) ?? 0);
    const expected = periods.length > 2 ? periods[periods.length - 1]! - periods[0]! - 1 : 0;
    expect(
      perSlot.filter((n) => n !== 1),
      `runs per slot ${JSON.stringify(perSlot)}`,
    ).to.deep.equal([]);
    expect(perSlot.length, 'slots with a run').to.equal(expected);

    const loginOutage = outage(loginAttempts, killedAt);
    const missOutage = outage(missAttempts, killedAt);
    process.stdout.write(
      `cluster failover: logins failed for ${loginOutage} ms, stats misses for ${missOutage} ms; stats back after ${statsBack} ms, login after ${loginBack} ms\n`,
    );
    record({
      fault: "Redis Cluster failover: the users' master SIGKILL under load (3 masters + 3 replicas, 2 workers)",
      requests: summary.sent + loginAttempts.filter((a) => a.at >= killedAt).length + missAttempts.filter((a) => a.at >= killedAt).length,
      errors: [...loginAttempts, ...missAttempts].filter((a) => a.at >= killedAt && !a.ok).length,
      degradedSeconds: Math.max(loginOutage, missOutage) / 1000,
      usersLost: 0,
      jobsLost: 0,
      note: `cached reads 200 throughout; logins failed for ${(loginOutage / 1000).toFixed(1)} s and stats misses for ${(missOutage / 1000).toFixed(1)} s after the kill (cluster-node-timeout 1 s, then the replica is elected); stats back ${(statsBack / 1000).toFixed(1)} s, login ${(loginBack / 1000).toFixed(1)} s after it; ${perSlot.length} scheduled periods, one run each; the user added just before the kill logs in`,
    });
  });

  it("when a master's slots are moved to another under load (redis-cli --cluster reshard), then no client sees an error", async () => {
    const source = await cluster.masterOf(keys.user(ADMIN.email));
    const target = cluster.nodes.find((node) => node.port !== source.port && node.pid() !== undefined)!;
    const id = async (port: number) => (await redisCli(['-p', String(port), 'cluster', 'myid'])).trim();
    const [from, to] = await Promise.all([id(source.port), id(target.port)]);
    const targetRole = (await redisCli(['-p', String(target.port), 'role'])).split('\n')[0];
    const destination = targetRole === 'master' ? { port: target.port, id: to } : await otherMaster(cluster, source.port);

    const load = startLoad({
      baseUrl: deployment.apiUrl,
      paths: ['/api/market/trending', '/api/market/news?limit=20', '/api/market/trending-cas'],
      clients: 6,
      pauseMs: 20,
    });
    const logins = watch(async () => (await deployment.login(ADMIN.email, ADMIN.password)).status === 200);
    const misses = watch(async () => (await api(`/api/market/stats/${unknownName()}`)).status === 404);
    const found = watch(async () => (await api(`/api/market/stats/${newName()}`)).status === 200);
    await sleep(2000);

    const startedAt = Date.now();
    await redisCli([
      '--cluster',
      'reshard',
      `127.0.0.1:${source.port}`,
      '--cluster-from',
      from,
      '--cluster-to',
      destination.id,
      '--cluster-slots',
      '16384',
      '--cluster-yes',
      '--cluster-pipeline',
      '100',
    ]);
    const tookMs = Date.now() - startedAt;
    await sleep(2000);

    const summary = summarize(await load.stop(), startedAt, Date.now());
    const attempts = [...(await logins.stop()), ...(await misses.stop()), ...(await found.stop())].filter((a) => a.at >= startedAt);
    const moved = await cluster.masterOf(keys.user(ADMIN.email));
    expect(moved.port, 'the users moved with the slots').to.equal(destination.port);
    expect(summary.errors.length, 'cached reads that failed').to.equal(0);
    expect(attempts.filter((a) => !a.ok).length, 'logins and stats lookups that failed').to.equal(0);
    process.stdout.write(`cluster reshard: ${tookMs} ms, ${attempts.length} logins and lookups during it, none failed\n`);
    record({
      fault: "Redis Cluster slot migration: every slot of the users' master resharded under load",
      requests: summary.sent + attempts.length,
      errors: attempts.filter((a) => !a.ok).length + summary.errors.length,
      degradedSeconds: 0,
      usersLost: 0,
      jobsLost: 0,
      note: `the reshard took ${(tookMs / 1000).toFixed(1)} s; cached reads, logins and stats lookups (found and not found) answered throughout, MOVED/ASK followed by the clients`,
    });
  });
});

/** A master other than the one on `port`, with its node id. */
async function otherMaster(cluster: TestRedisCluster, port: number): Promise<{ port: number; id: string }> {
  for (const node of cluster.nodes) {
    if (node.port === port) continue;
    const role = (await redisCli(['-p', String(node.port), 'role']).catch(() => '')).split('\n')[0];
    if (role === 'master') return { port: node.port, id: (await redisCli(['-p', String(node.port), 'cluster', 'myid'])).trim() };
  }
  throw new Error('no other master');
}
