import type { Queue } from 'bullmq';
import { expect } from 'chai';
import { pino } from 'pino';
import { redisCounter } from '../../apps/worker/src/counters.js';
import { createWorkerProvider } from '../../apps/worker/src/providers/create-provider.js';
import { startWorker, type RunningWorker } from '../../apps/worker/src/worker.js';
import { loadConfig } from '../../shared/config.js';
import { refreshSlotKeys } from '../../shared/keyspace.js';
import { REFRESH_JOBS, REFRESH_QUEUE } from '../../shared/queues.js';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import { startProviderFixtures, type ProviderFixtures } from '../../dev/provider-fixtures/index.js';
import { http } from '../support/http.js';
import { eventually, startStack, type Stack } from '../support/stack.js';
import { seedUser, tokenFor } from '../api/auth/helpers.js';

const ELFA_TRENDING = '/v2/aggregations/trending-tokens';

describe('the Elfa credit budget against admin refreshes (INDEX_PROVIDER=composite, issue 38 item 1)', () => {
  let stack: Stack;
  let fixtures: ProviderFixtures;
  let worker: RunningWorker;
  let queue: Queue;
  let adminToken: string;

  before(async () => {
    fixtures = await startProviderFixtures();
    stack = await startStack({ workers: 0 });
    const config = loadConfig({ NODE_ENV: 'test', ...stack.redisEnv, ...fixtures.env, REFRESH_INTERVAL: '30m', LOG_LEVEL: 'silent' });
    const logger = pino({ level: 'silent' });
    const { provider, refreshEveryMsByJob } = await createWorkerProvider(config, stack.redis, logger, redisCounter(stack.redis));
    // The free plan's 1,000 credits a month: the Elfa lists refresh every 149 minutes.
    expect(refreshEveryMsByJob['refresh-trending']).to.equal(149 * 60_000);
    worker = await startWorker({ redis: config, provider, refreshEveryMsByJob, refreshEveryMs: 30 * 60_000, logger });
    queue = stack.queue(REFRESH_QUEUE);
    await seedUser(stack, 'root@example.com', 'root password 1', 'admin');
    adminToken = await tokenFor(stack, 'root@example.com', 'root password 1');
  });
  after(async () => {
    await worker?.close(2000);
    await queue?.close();
    await stack?.close();
    await fixtures?.close();
  });

  const asked = async (job: string) =>
    (await queue.getJobs(['completed', 'failed'])).filter((entry) => entry.name === job && entry.repeatJobKey === undefined);

  it('when an admin forces a refresh while the Elfa lists are fresh, then no Elfa call: the budget paces them, the other kinds are refreshed', async () => {
    await eventually(
      () => stack.redis.get(snapshotKeys.version('trending')).then((version) => version ?? undefined),
      15_000,
      'the first trending',
    );
    await eventually(async () => ((await queue.getJobs(['active', 'waiting'])).length === 0 ? true : undefined), 15_000, 'the first runs');
    fixtures.reset();

    const trending = await forceRefresh();
    expect(trending!.returnvalue)
      .to.have.property('skipped')
      .that.matches(/credit budget refreshes it every 149 min/);
    await eventually(async () => ((await asked('refresh-news')).length > 0 ? true : undefined), 15_000, 'the forced news run');
    expect(fixtures.elfa.requestsTo(ELFA_TRENDING)).to.have.length(0);
    expect(fixtures.x.requestsTo('/2/tweets/search/recent').length).to.be.greaterThan(0);
  });

  /** POST /api/admin/refresh (202), then the trending refresh job it asked for, once it has run. */
  async function forceRefresh() {
    const res = await http(`${stack.apiUrl}/api/admin/refresh`, { method: 'POST', headers: { Authorization: `Bearer ${adminToken}` } });
    expect(res.status).to.equal(202);
    const [trending] = await eventually(async () => {
      const done = await asked('refresh-trending');
      return done.length > 0 ? done : undefined;
    });
    return trending;
  }

  it('when the Elfa snapshot is older than its interval (a scheduled run failed), then a forced refresh calls Elfa once', async () => {
    await stack.redis.set(snapshotKeys.version('trending'), new Date(Date.now() - 150 * 60_000).toISOString());
    // One key a call: each job's key is in its own slot (a Redis Cluster refuses a DEL across slots).
    await Promise.all(REFRESH_JOBS.map((job) => stack.redis.del(refreshSlotKeys.forcedAsk(job))));
    await queue.clean(0, 1000, 'completed');
    fixtures.reset();
    const trending = await forceRefresh();
    expect(trending!.returnvalue).to.not.have.property('skipped');
    expect(fixtures.elfa.requestsTo(ELFA_TRENDING)).to.have.length(1);
  });
});
