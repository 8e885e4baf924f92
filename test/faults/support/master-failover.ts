/**
 * The failover every Redis topology must survive, written once for Sentinel and Cluster alike:
 * the master holding the users is killed (SIGKILL) under load, and the deployment must keep its
 * cached reads answering, get stats and login back within 30 s, keep the users written before the
 * kill and keep one scheduled run per period. Only how the master is found and what the record
 * says differ between topologies.
 */
import { expect } from 'chai';
import type { TestRedis } from '../../support/redis-server.js';
import { sleep, until, ADMIN, type Deployment } from './deployment.js';
import { outage, startLoad, summarize, watch } from './load.js';

/** Stats lookups that make the worker work: each a miss, so each a job. */
export interface LookupNames {
  tracked: () => string;
  unknown: () => string;
}

export function lookupNames(deployment: Deployment, prefix: string): LookupNames {
  let fresh = 0;
  let unknown = 0;
  return {
    /** A tracked username not asked for yet: answered 200 once the worker has fetched it. */
    tracked: () => deployment.sim.trackedUsernames()[(fresh += 1) % 300]!,
    /** A name the index does not know: a miss every time, answered 404 once the worker has asked upstream. */
    unknown: () => `${prefix}_${Date.now() % 1e6}_${(unknown += 1)}`,
  };
}

/**
 * What clients do during a fault: six polling the cached market reads, the admin logging in, and
 * stats lookups of unknown names (a write and a job each).
 */
export function startTraffic(deployment: Deployment, password: string, unknownName: () => string) {
  const load = startLoad({
    baseUrl: deployment.apiUrl,
    paths: ['/api/market/trending', '/api/market/news?limit=20', '/api/market/trending-cas'],
    clients: 6,
    pauseMs: 20,
  });
  const logins = watch(async () => (await deployment.login(ADMIN.email, password)).status === 200);
  const misses = watch(async () => (await fetch(`${deployment.apiUrl}/api/market/stats/${unknownName()}`)).status === 404);
  return { load, logins, misses };
}

export interface MasterKill {
  deployment: Deployment;
  /** The scheduled refresh period the deployment runs with. */
  periodMs: number;
  /** The admin's password at the time of the kill. */
  password: string;
  names: LookupNames;
  /** The node currently master for the users. */
  master(): Promise<TestRedis>;
  /** Called just before the kill, with the times the scheduled refreshes reached the index so far. */
  beforeKill?(runs: number[]): Promise<void>;
}

/** The figures a topology's record is written from. */
export interface MasterKillOutcome {
  requests: number;
  errors: number;
  loginOutageMs: number;
  missOutageMs: number;
  statsBackMs: number;
  loginBackMs: number;
  /** Scheduled periods observed whole, each with exactly one run. */
  periods: number;
}

/** Kills the users' master under load and checks what users rely on; a user is added just before. */
export async function killMasterUnderLoad(kill: MasterKill): Promise<MasterKillOutcome> {
  const { deployment, periodMs, password, names } = kill;
  const stats = (name: string) => fetch(`${deployment.apiUrl}/api/market/stats/${name}`);
  // `users add` returns once its write is acknowledged as the topology promises (WAIT): the replica has it.
  const added = deployment.users(['add', 'late@example.com'], 'added just before');
  expect(added.status, added.output).to.equal(0);

  // When each scheduled trending refresh reached the upstream.
  const runs: number[] = [];
  let seen = deployment.sim.stats()['/v1/trending/tokens'] ?? 0;
  const runWatch = setInterval(() => {
    const now = deployment.sim.stats()['/v1/trending/tokens'] ?? 0;
    for (; seen < now; seen += 1) runs.push(Date.now());
  }, 50);

  const { load, logins, misses } = startTraffic(deployment, password, names.unknown);
  await sleep(3 * periodMs);

  await kill.beforeKill?.(runs);
  const master = await kill.master();
  const killedAt = Date.now();
  await master.stop('SIGKILL');
  const statsBackMs = await until(async () => (await stats(names.tracked())).status === 200, 30_000, 'a stats miss after the failover');
  const loginBackMs = await until(
    async () => (await deployment.login(ADMIN.email, password)).status === 200,
    30_000,
    'login after the failover',
  );
  await sleep(4 * periodMs);

  clearInterval(runWatch);
  const summary = summarize(await load.stop(), killedAt, Date.now());
  const loginAttempts = await logins.stop();
  const missAttempts = await misses.stop();
  const promoted = await kill.master();

  expect(promoted.port).to.not.equal(master.port);
  expect(summary.errors.length, 'cached reads that failed').to.equal(0);
  expect(statsBackMs).to.be.below(30_000);
  expect((await deployment.login('late@example.com', 'added just before')).status, 'a user added before the kill').to.equal(200);
  // One scheduled run per period slot: none lost, none doubled (the slots are aligned to the period).
  const slots = new Map<number, number>();
  for (const at of runs) slots.set(Math.floor(at / periodMs), (slots.get(Math.floor(at / periodMs)) ?? 0) + 1);
  const seenSlots = [...slots.keys()].sort((a, b) => a - b);
  const perSlot = seenSlots.slice(1, -1).map((k) => slots.get(k) ?? 0);
  const expected = seenSlots.length > 2 ? seenSlots[seenSlots.length - 1]! - seenSlots[0]! - 1 : 0;
  expect(
    perSlot.filter((n) => n !== 1),
    `runs per slot ${JSON.stringify(perSlot)}`,
  ).to.deep.equal([]);
  expect(perSlot.length, 'slots with a run').to.equal(expected);

  const after = [...loginAttempts, ...missAttempts].filter((a) => a.at >= killedAt);
  return {
    requests: summary.sent + after.length,
    errors: after.filter((a) => !a.ok).length,
    loginOutageMs: outage(loginAttempts, killedAt),
    missOutageMs: outage(missAttempts, killedAt),
    statsBackMs,
    loginBackMs,
    periods: perSlot.length,
  };
}
