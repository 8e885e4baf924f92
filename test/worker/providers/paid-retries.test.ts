/**
 * A refresh that reached a provider that bills is not retried by the job: BullMQ's attempts would
 * pay again for every one (Elfa: a credit a call). A real worker over real Redis and the provider
 * fixtures; the simulator's (unpaid) refreshes keep their retries (test/worker/upstream-faults.test.ts).
 */
import { createServer } from 'node:net';
import { Queue, type Job } from 'bullmq';
import { expect } from 'chai';
import { pino } from 'pino';
import { createCompositeProvider, createAdapters } from '../../../apps/worker/src/providers/composite.js';
import { startWorker, type RunningWorker } from '../../../apps/worker/src/worker.js';
import { providerKeys } from '../../../shared/provider-keys.js';
import { queueBaseOptions, REFRESH_QUEUE, type RefreshJobData } from '../../../shared/queues.js';
import { eventually } from '../../support/eventually.js';
import { sharedTestRedis } from '../../support/redis-server.js';
import { startHarness, type Harness } from './helpers.js';

const CAS_PATH = '/v2/aggregations/trending-cas';

/** A port nothing listens on: a connection there is refused before any request is sent. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a paid refresh is not retried blindly (INDEX_PROVIDER=composite)', function () {
  this.timeout(30_000);
  let h: Harness;
  let worker: RunningWorker | undefined;
  let queue: Queue<RefreshJobData>;

  /** The harness, then `arrange` (before any job can run), then a worker, which refreshes everything at once. */
  async function start(env: Record<string, string> = {}, arrange: () => unknown = () => undefined): Promise<void> {
    h = await startHarness(env);
    await arrange();
    const { url } = await sharedTestRedis();
    queue = new Queue<RefreshJobData>(REFRESH_QUEUE, {
      ...queueBaseOptions(),
      connection: { port: Number(new URL(url).port), protocol: 2 },
    });
    const logger = pino({ level: 'silent' });
    const options = { config: h.config, redis: h.redis, logger, count: () => {}, timeoutMs: 2_000, maxRateLimitWaitMs: 5_000 };
    worker = await startWorker({
      redis: { redisUrl: url, redisTlsInsecure: false },
      provider: createCompositeProvider(options, createAdapters(options)),
      logger,
    });
  }

  /** The trending-cas refresh once its first attempt has failed, and the state it is left in. */
  async function failedRefresh(): Promise<{ job: Job; state: string }> {
    const job = await eventually(
      async () => {
        const jobs = await queue.getJobs(['failed', 'delayed', 'wait']);
        return jobs.find((candidate) => candidate.name === 'refresh-trending-cas' && candidate.failedReason);
      },
      15_000,
      'the trending-cas refresh to fail an attempt',
    );
    return { job, state: await job.getState() };
  }

  afterEach(async () => {
    await worker?.close(2_000);
    worker = undefined;
    await queue?.close();
    await h?.close();
  });

  it('when Elfa answers 5xx, then the refresh fails for good after one paid call (the next scheduled run asks again)', async () => {
    const unavailable = { status: 503, body: { success: false, message: 'unavailable' } };
    // Every attempt BullMQ could make would get the same answer.
    await start({}, () => h.fixtures.elfa.script(CAS_PATH, unavailable, unavailable, unavailable, unavailable));
    const { job, state } = await failedRefresh();
    expect(state, job.failedReason).to.equal('failed');
    expect(job.failedReason).to.match(/HTTP 503.*not retried: a provider that bills was called/);
    // Failed is final: no attempt is left to make another call.
    expect(h.fixtures.elfa.requestsTo(CAS_PATH)).to.have.length(1);
  });

  it('when storing fails after Elfa answered (Redis refuses the write), then the two paid calls are not made again', async () => {
    // A key of the wrong type: Redis answers WRONGTYPE to the first-seen write, as it would to any failed write.
    await start({}, () => h.redis.set(providerKeys.caFirstSeen(), 'not a hash'));
    const { job, state } = await failedRefresh();
    expect(state, job.failedReason).to.equal('failed');
    expect(job.failedReason).to.match(/first-seen times were not stored/);
    expect(h.fixtures.elfa.requestsTo(CAS_PATH).map((request) => request.path)).to.deep.equal([
      `${CAS_PATH}/twitter`,
      `${CAS_PATH}/telegram`,
    ]);
  });

  it('when Elfa cannot be reached at all (connection refused), then nothing was billed and the refresh is retried', async () => {
    await start({ ELFA_API_URL: `http://127.0.0.1:${await closedPort()}` });
    const { job, state } = await failedRefresh();
    expect(job.failedReason).to.match(/ECONNREFUSED/);
    expect(state, job.failedReason).to.equal('delayed');
  });
});
