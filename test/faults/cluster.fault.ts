/**
 * Redis Cluster: three masters and three replicas of redis-server on loopback, the Procfile
 * processes on REDIS_CLUSTER_NODES. A master dies (SIGKILL) under load and its replica takes
 * over; then an operator moves a master's slots to another (`redis-cli --cluster reshard`)
 * under load, and the clients follow MOVED/ASK without an error.
 */
import { expect } from 'chai';
import { keys } from '../../shared/keyspace.js';
import { redisCli, startTestRedisCluster, type TestRedisCluster } from '../support/redis-server.js';
import { ADMIN, sleep, startDeployment, type Deployment } from './support/deployment.js';
import { summarize, watch } from './support/load.js';
import { killMasterUnderLoad, lookupNames, type LookupNames, startTraffic } from './support/master-failover.js';
import { record } from './support/report.js';

const PERIOD_MS = 5000;

describe('Redis Cluster: failover and slot migration', function () {
  this.timeout(240_000);
  let cluster: TestRedisCluster;
  let deployment: Deployment;
  let names: LookupNames;
  const api = (path: string, init?: RequestInit) => fetch(`${deployment.apiUrl}${path}`, init);

  beforeEach(async () => {
    cluster = await startTestRedisCluster({ masters: 3, replicas: 1, nodeTimeoutMs: 1000 });
    deployment = await startDeployment({
      redisEnv: { REDIS_CLUSTER_NODES: cluster.seeds },
      workers: 2,
      env: { REFRESH_INTERVAL: `${PERIOD_MS / 1000}s` },
    });
    names = lookupNames(deployment, 'nc');
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') process.stdout.write(`${deployment.logTail()}\n`);
    await deployment.stop();
    await cluster.stop();
  });

  it('when the master holding the users is killed under load, then cached reads keep answering, stats and login are back within 30 s, a user added just before still logs in, and the schedules keep one run per period', async () => {
    const failover = await killMasterUnderLoad({
      deployment,
      periodMs: PERIOD_MS,
      password: ADMIN.password,
      names,
      master: () => cluster.masterOf(keys.user(ADMIN.email)),
    });
    const { loginOutageMs, missOutageMs, statsBackMs, loginBackMs } = failover;
    process.stdout.write(
      `cluster failover: logins failed for ${loginOutageMs} ms, stats misses for ${missOutageMs} ms; stats back after ${statsBackMs} ms, login after ${loginBackMs} ms\n`,
    );
    record({
      fault: "Redis Cluster failover: the users' master SIGKILL under load (3 masters + 3 replicas, 2 workers)",
      requests: failover.requests,
      errors: failover.errors,
      degradedSeconds: Math.max(loginOutageMs, missOutageMs) / 1000,
      usersLost: 0,
      jobsLost: 0,
      note: `cached reads 200 throughout; logins failed for ${(loginOutageMs / 1000).toFixed(1)} s and stats misses for ${(missOutageMs / 1000).toFixed(1)} s after the kill (cluster-node-timeout 1 s, then the replica is elected); stats back ${(statsBackMs / 1000).toFixed(1)} s, login ${(loginBackMs / 1000).toFixed(1)} s after it; ${failover.periods} scheduled periods, one run each; the user added just before the kill logs in`,
    });
  });

  it("when a master's slots are moved to another under load (redis-cli --cluster reshard), then no client sees an error", async () => {
    const source = await cluster.masterOf(keys.user(ADMIN.email));
    const target = cluster.nodes.find((node) => node.port !== source.port && node.pid() !== undefined)!;
    const id = async (port: number) => (await redisCli(['-p', String(port), 'cluster', 'myid'])).trim();
    const [from, to] = await Promise.all([id(source.port), id(target.port)]);
    const targetRole = (await redisCli(['-p', String(target.port), 'role'])).split('\n')[0];
    const destination = targetRole === 'master' ? { port: target.port, id: to } : await otherMaster(cluster, source.port);

    const { load, logins, misses } = startTraffic(deployment, ADMIN.password, names.unknown);
    const found = watch(async () => (await api(`/api/market/stats/${names.tracked()}`)).status === 200);
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
