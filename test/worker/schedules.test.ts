import { expect } from 'chai';
import type { Queue } from 'bullmq';
import { WIRE_LISTS } from '../../apps/worker/src/providers/wire-schemas.js';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import { REFRESH_EVERY_MS, REFRESH_QUEUE } from '../../shared/queues.js';
import { activeRefreshJobs, activeSnapshots, BASE_LIST_KINDS } from '../../shared/snapshot-kinds.js';
import { http } from '../support/http.js';
import { eventually, startStack, type Stack } from '../support/stack.js';
import { emptyKeyspace, existing } from '../support/redis-keys.js';

/** The index's listing of each list kind (the simulator counts calls by path). */
/** What the workers schedule without TRENDING_WINDOWS: every kind but the windowed lists. */
const REFRESH_JOBS = activeRefreshJobs(['24h']);
const SNAPSHOTS = activeSnapshots(['24h']);
const UPSTREAM_LISTINGS = BASE_LIST_KINDS.map((kind) => `/${WIRE_LISTS[kind].path}`);

/**
 * True once the refresh queue is quiet: nothing waiting or running, and only the schedules'
 * next runs (30 minutes away, one per refresh job of the table) delayed. Every run that starting or restarting the workers caused
 * has finished by then, so its upstream calls are counted.
 */
async function quiet(queue: Queue): Promise<true | undefined> {
  const counts = await queue.getJobCounts('active', 'waiting', 'prioritized', 'delayed');
  return counts.active === 0 && counts.waiting === 0 && counts.prioritized === 0 && counts.delayed === REFRESH_JOBS.length
    ? true
    : undefined;
}

describe('worker schedules', () => {
  let stack: Stack;
  let queue: Queue;

  before(async () => {
    stack = await startStack({ workers: 3 });
    queue = stack.queue(REFRESH_QUEUE);
  });
  after(async () => {
    await queue.close();
    await stack.close();
  });

  it('when three workers start together, then each snapshot of the table is fetched once and each refresh job scheduled once every 30 minutes', async () => {
    await eventually(async () =>
      (await existing(stack.redis, SNAPSHOTS.map(snapshotKeys.snapshot))) === SNAPSHOTS.length ? true : undefined,
    );
    await eventually(() => quiet(queue), 10_000, 'the refresh queue to settle');
    const calls = stack.sim.stats();
    for (const path of UPSTREAM_LISTINGS) expect(calls[path], path).to.equal(1);

    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((s) => s.key).sort()).to.deep.equal([...REFRESH_JOBS].sort());
    for (const scheduler of schedulers) expect(Number(scheduler.every)).to.equal(REFRESH_EVERY_MS);
    // One next run per schedule, not one per worker.
    expect(await queue.getDelayedCount()).to.equal(REFRESH_JOBS.length);
  });

  it('when the workers restart, then no extra upstream call and still one run pending per schedule', async () => {
    stack.sim.resetStats();
    await Promise.all(stack.workers.splice(0).map((worker) => worker.close(2000)));
    await stack.startWorkers(3);
    // startWorkers resolves once the schedules are upserted: a run they added is waiting or running until it is done.
    await eventually(() => quiet(queue), 10_000, 'the refresh queue to settle');
    expect(stack.sim.stats()['/v1/trending/tokens'] ?? 0).to.equal(0);
    expect(await queue.getDelayedCount()).to.equal(REFRESH_JOBS.length);
    expect(await queue.getJobSchedulersCount()).to.equal(REFRESH_JOBS.length);
  });

  it('when Redis is emptied, then the schedules come back by themselves and the snapshots are refetched', async () => {
    // Every key of the stack's prefix, BullMQ's included, on every master: FLUSHALL as far as the stack can tell.
    await emptyKeyspace(stack.redis);
    // Reconnects are what tell the worker Redis came back; an emptying alone is seen through the API.
    const res = await http(`${stack.apiUrl}/api/market/trending`);
    expect(res.status).to.equal(200);
    await eventually(async () => ((await stack.redis.exists(snapshotKeys.snapshot('trending'))) === 1 ? true : undefined));
  });
});
