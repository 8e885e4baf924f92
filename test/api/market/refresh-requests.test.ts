/**
 * A failing refresh is retried on a backoff, whatever the readers do (docs/decisions.md#d14):
 * a client polling an absent snapshot every 250 ms, while the upstream fails, costs the upstream
 * a handful of calls, counted at the upstream; each 503 says when to come back. Real HTTP, real
 * Redis, a real worker, with INDEX_PROVIDER=index (the simulator refusing the worker's key) and
 * composite (Elfa answering 500).
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { redisCounter } from '../../../apps/worker/src/counters.js';
import { createWorkerProvider } from '../../../apps/worker/src/providers/create-provider.js';
import { startWorker, type RunningWorker } from '../../../apps/worker/src/worker.js';
import { refreshSlotKeys } from '../../../shared/keyspace.js';
import { createRedis } from '../../../shared/redis.js';
import { http, type HttpAnswer } from '../../support/http.js';
import { startProviderFixtures, type ProviderFixtures } from '../../../dev/provider-fixtures/index.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

const POLL_FOR_MS = 15_000;

interface Poll {
  answers: { at: number; res: HttpAnswer }[];
}

/** GET `url` until POLL_FOR_MS have passed, 250 ms after each answer. */
async function poll(url: string): Promise<Poll> {
  const answers: Poll['answers'] = [];
  const end = Date.now() + POLL_FOR_MS;
  while (Date.now() < end) {
    answers.push({ at: Date.now(), res: await http(url) });
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { answers };
}

/**
 * Every answer was a 503 with Retry-After, Data temporarily unavailable; each held one's Retry-After
 * points at the same end of the hold. One in ten may be the other documented 503, Service unavailable:
 * the API's own Redis read past its command timeout (CI's Cluster leg saw one of 40 polls at load 7),
 * which says nothing of the hold.
 */
function expectHeldAnswers({ answers: all }: Poll): void {
  expect(all.length).to.be.greaterThan(20);
  for (const { res } of all) {
    expect(res.status).to.equal(503);
    expect(Number(res.headers.get('retry-after'))).to.be.at.least(1);
  }
  const answers = all.filter(({ res }) => (res.json as { error?: string }).error !== 'Service unavailable');
  expect(all.length - answers.length, 'answers past the API Redis timeout').to.be.at.most(all.length / 10);
  for (const { res } of answers) expect(res.json).to.deep.equal({ error: 'Data temporarily unavailable' });
  // Past the first answers (the failure itself), every 503 is held back: its Retry-After counts down to the hold's end.
  const held = answers.slice(answers.length / 2);
  const ends = held.map(({ at, res }) => at / 1000 + Number(res.headers.get('retry-after')));
  for (const { res } of held) expect(Number(res.headers.get('retry-after'))).to.be.within(1, 60);
  expect(Math.max(...ends) - Math.min(...ends)).to.be.at.most(2.5);
}

/** The worker as INDEX_PROVIDER=composite runs it (against the fixtures' Elfa), with its own Redis connection for the providers. */
async function startCompositeWorker(stack: Stack, options: { refreshBackoffMs?: number } = {}): Promise<RunningWorker> {
  const logger = pino({ level: 'silent' });
  providerRedis = createRedis(stack.config, 'worker', 'test-providers', logger);
  const { provider, refreshEveryMsByJob } = await createWorkerProvider(stack.config, providerRedis, logger, redisCounter(providerRedis));
  return startWorker({
    redis: stack.config,
    provider,
    refreshEveryMsByJob,
    logger,
    refreshEveryMs: stack.config.refreshIntervalMs,
    ...options,
  });
}
let providerRedis: Redis | undefined;

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('when a client polls an absent snapshot while its refresh keeps failing (docs/decisions.md#d14)', function () {
  this.timeout(60_000);
  let stack: Stack | undefined;
  let fixtures: ProviderFixtures | undefined;
  let worker: RunningWorker | undefined;

  afterEach(async () => {
    await worker?.close(2000);
    await stack?.close();
    await fixtures?.close();
    providerRedis?.disconnect();
    worker = stack = fixtures = providerRedis = undefined;
  });

  it('with INDEX_PROVIDER=index (the upstream refuses the key), then a handful of upstream calls, 503s with a Retry-After counting down the hold, attempts in /metrics', async () => {
    stack = await startStack({ simulator: { apiKey: 'the-key-the-worker-lacks' } });
    const polled = await poll(`${stack.apiUrl}/api/market/trending`);

    expect(stack.sim.stats()['/v1/trending/tokens'] ?? 0).to.be.within(1, 3);
    expectHeldAnswers(polled);
    const metrics = (await http(`${stack.apiUrl}/metrics`)).body.toString('utf8');
    expect(sample(metrics, 'market_refresh_attempts_total{job="refresh-trending",outcome="failed"}')).to.be.within(1, 3);
    expect(sample(metrics, 'market_refresh_requests_total{job="refresh-trending",outcome="held"}')).to.be.greaterThan(20);
  });

  it('with INDEX_PROVIDER=composite (Elfa answers 500, a paid call), then a handful of Elfa calls and the same 503s', async () => {
    fixtures = await startProviderFixtures();
    fixtures.elfa.script(
      '/v2/aggregations/trending-tokens',
      ...Array.from({ length: 500 }, () => ({ status: 500, body: { success: false, error: 'internal' } })),
    );
    stack = await startStack({ workers: 0, env: fixtures.env });
    worker = await startCompositeWorker(stack);
    const polled = await poll(`${stack.apiUrl}/api/market/trending`);

    expect(fixtures.elfa.requestsTo('/v2/aggregations/trending-tokens').length).to.be.within(1, 3);
    expectHeldAnswers(polled);
  });

  it('when the hold ends, then the next read asks again, and once a refresh succeeds the hold is gone and the snapshot served', async () => {
    fixtures = await startProviderFixtures();
    fixtures.elfa.script(
      '/v2/aggregations/trending-tokens',
      { status: 500, body: { success: false } },
      { status: 500, body: { success: false } },
    );
    stack = await startStack({ workers: 0, env: fixtures.env });
    // A first hold of 1 s (30 s in production), so that two holds pass within the test.
    worker = await startCompositeWorker(stack, { refreshBackoffMs: 1_000 });
    const retryAfters: number[] = [];
    const served = await eventually(
      async () => {
        const res = await http(`${stack!.apiUrl}/api/market/trending`);
        if (res.status === 503) retryAfters.push(Number(res.headers.get('retry-after')));
        await new Promise((resolve) => setTimeout(resolve, 250));
        return res.status === 200 ? res : undefined;
      },
      20_000,
      'trending served',
    );

    expect((served.json as { data: unknown[] }).data.length).to.be.greaterThan(0);
    expect(fixtures.elfa.requestsTo('/v2/aggregations/trending-tokens')).to.have.length(3);
    expect(Math.max(...retryAfters)).to.be.within(1, 2);
    expect(await stack.redis.exists(refreshSlotKeys.hold('refresh-trending'), refreshSlotKeys.failures('refresh-trending'))).to.equal(0);
  });
});
