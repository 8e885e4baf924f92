import { expect } from 'chai';
import type { Queue } from 'bullmq';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import { REFRESH_QUEUE } from '../../shared/queues.js';
import { http } from '../support/http.js';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { eventually, startStack, type Stack } from '../support/stack.js';

describe('when Redis goes away and comes back (docs/decisions.md#d8)', () => {
  let redis: TestRedis;
  let stack: Stack;
  const get = (path: string) => http(`${stack.apiUrl}${path}`);

  before(async () => {
    redis = await startTestRedis();
    stack = await startStack({ redisUrl: redis.url });
    await eventually(async () => ((await get('/readyz')).status === 200 ? true : undefined), 15_000, 'readiness');
    expect((await get('/api/market/trending')).status).to.equal(200);
  });
  after(async () => {
    await stack.close();
    await redis.stop();
  });

  it('then reads that need Redis answer 503 Service unavailable within 1 s, copies held in memory still serve', async () => {
    const held = await get('/api/market/trending');
    await redis.stop();
    // Once the API's connection has seen the server go (a request sent before that would wait for its timeout, not fail fast).
    await eventually(() => (stack.deps.redis.status === 'ready' ? undefined : true), 5_000, 'the API to see Redis gone');

    const started = Date.now();
    const stats = await get('/api/market/stats/some_user');
    expect(Date.now() - started).to.be.below(1000);
    expect(stats.status).to.equal(503);
    expect(stats.json).to.deep.equal({ error: 'Service unavailable' });
    expect(stats.headers.get('retry-after')).to.match(/^\d+$/);

    const ready = await get('/readyz');
    expect(ready.status).to.equal(503);

    const trending = await get('/api/market/trending');
    expect(trending.status).to.equal(200);
    expect(trending.body.equals(held.body)).to.equal(true);
  });

  it('then, once Redis is back (empty), every process recovers without a restart', async () => {
    await redis.start();
    const username = stack.sim.trackedUsernames()[5]!;
    const stats = await eventually(
      async () => {
        const res = await get(`/api/market/stats/${username}`);
        return res.status === 200 ? res : undefined;
      },
      15_000,
      'stats after recovery',
    );
    expect((stats.json as { username: string }).username).to.equal(username);
    // The worker re-creates its schedules, which refetch the snapshots the empty Redis lost.
    await eventually(
      async () => ((await stack.redis.exists(snapshotKeys.snapshot('trending'))) === 1 ? true : undefined),
      15_000,
      'snapshot',
    );
    await eventually(async () => ((await get('/readyz')).status === 200 ? true : undefined), 15_000, 'readiness');
  });
});

describe('when a shared snapshot is absent (docs/decisions.md#d8)', () => {
  let stack: Stack;

  afterEach(() => stack.close());

  it('when a worker runs, then the API asks it for a refresh and answers once it lands', async () => {
    stack = await startStack({ workers: 0 });
    const pending = http(`${stack.apiUrl}/api/market/trending-cas`);
    // The read has asked for its refresh before any worker runs.
    const queue = stack.queue(REFRESH_QUEUE);
    await eventually(async () => ((await queue.getWaitingCount()) > 0 ? true : undefined), 5_000, 'the refresh asked for');
    await queue.close();
    await stack.startWorkers(1);
    const res = await pending;
    expect(res.status).to.equal(200);
    expect((res.json as { data: unknown[] }).data).to.have.length(30);
  });

  it('when no worker answers within 10 s, then 503 Data temporarily unavailable with Retry-After', async function () {
    this.timeout(15_000);
    stack = await startStack({ workers: 0 });
    const started = Date.now();
    const res = await http(`${stack.apiUrl}/api/market/news`);
    expect(Date.now() - started).to.be.below(10_000);
    expect(res.status).to.equal(503);
    expect(res.json).to.deep.equal({ error: 'Data temporarily unavailable' });
    expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
  });
});

/** The stack's refresh queue, to see which refreshes were asked for and how they went. */
function refreshQueue(stack: Stack): Queue {
  return stack.queue(REFRESH_QUEUE);
}

/** A stack that answers /readyz, and its refresh queue. */
async function readyStack(): Promise<{ stack: Stack; queue: Queue }> {
  const stack = await startStack();
  await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 15_000);
  return { stack, queue: refreshQueue(stack) };
}

describe('when the upstream is down', () => {
  let stack: Stack;
  let queue: Queue;
  before(async () => ({ stack, queue } = await readyStack()));
  after(async () => {
    await queue.close();
    await stack.close();
  });

  it('then cached data is still served', async () => {
    const before = await http(`${stack.apiUrl}/api/market/news?page=3`);
    stack.sim.setFaults({ errorRate: 1 });
    await stack.deps.refreshAll();
    // The news refresh ran against the failing upstream and gave up this attempt (it waits to retry).
    await eventually(
      async () => {
        const jobs = await queue.getJobs(['delayed', 'failed']);
        return jobs.some((job) => job.name.includes('news') && job.attemptsMade >= 1 && job.failedReason) ? true : undefined;
      },
      15_000,
      'a failed news refresh',
    );
    const during = await http(`${stack.apiUrl}/api/market/news?page=3`);
    stack.sim.clearFaults();
    expect(during.status).to.equal(200);
    expect(during.body.equals(before.body)).to.equal(true);
  });
});

describe('when Redis loses a snapshot the API still holds in memory', () => {
  let stack: Stack;
  let queue: Queue;
  before(async () => ({ stack, queue } = await readyStack()));
  after(async () => {
    await queue.close();
    await stack.close();
  });

  it('then the copy keeps serving and the API has the worker rebuild the snapshot', async () => {
    const held = await http(`${stack.apiUrl}/api/market/trending-cas`);
    // No worker until the API has noticed the loss, so the copy it serves meanwhile is the one it held.
    await Promise.all(stack.workers.splice(0).map((worker) => worker.close(2000)));
    await stack.redis.del(snapshotKeys.snapshot('trending-cas'), snapshotKeys.version('trending-cas'));
    // Reads (at most one check of Redis a second) until one has noticed the loss and asked for a rebuild.
    const during: Buffer[] = [];
    await eventually(
      async () => {
        during.push((await http(`${stack.apiUrl}/api/market/trending-cas`)).body);
        const requested = await queue.getJobs(['waiting', 'prioritized']);
        return requested.some((job) => job.name === 'refresh-trending-cas') ? true : undefined;
      },
      10_000,
      'the API to ask for a rebuild',
    );
    during.push((await http(`${stack.apiUrl}/api/market/trending-cas`)).body);
    for (const body of during) expect(body.equals(held.body)).to.equal(true);
    await stack.startWorkers(1);
    await eventually(
      async () => ((await stack.redis.exists(snapshotKeys.snapshot('trending-cas'))) === 1 ? true : undefined),
      10_000,
      'rebuilt snapshot',
    );
  });
});
