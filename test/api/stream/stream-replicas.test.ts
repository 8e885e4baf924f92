/**
 * Issue 12: two API processes (as two dynos) over one Redis, a real worker refreshing: both
 * stream the same refresh as the same event; a replica's SIGTERM ends its streams at once, and
 * a client resuming on the other replica with Last-Event-ID misses nothing.
 */
import type { Queue } from 'bullmq';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { startSimulator, type Simulator } from '../../../apps/index-sim/src/server.js';
import { createIndexClient } from '../../../apps/worker/src/providers/index-client.js';
import { startWorker, type RunningWorker } from '../../../apps/worker/src/worker.js';
import { historyKeys, snapshotKeys } from '../../../shared/snapshot-keys.js';
import { createLogger } from '../../../shared/logger.js';
import { REFRESH_QUEUE, requestRefresh, type RefreshJobData } from '../../../shared/queues.js';
import { startApiProcess, stopApiProcess, type ApiProcess } from '../../support/api-process.js';
import { existing } from '../../support/redis-keys.js';
import { sharedRedis } from '../../support/shared-redis.js';
import { SseClient } from '../../support/sse.js';
import { eventually } from '../../support/stack.js';

describe('two API processes streaming the same refreshes', function () {
  this.timeout(90_000);
  let redis: Redis;
  let sim: Simulator;
  let worker: RunningWorker;
  let queue: Queue<RefreshJobData>;
  const apis: ApiProcess[] = [];
  const clients: SseClient[] = [];

  before(async () => {
    const shared = await sharedRedis();
    redis = shared.client();
    sim = await startSimulator();
    const logger = createLogger({ logLevel: 'silent' }, 'test');
    worker = await startWorker({ redis: shared.config, provider: createIndexClient({ baseUrl: sim.url, apiKey: undefined }), logger });
    queue = shared.queue<RefreshJobData>(REFRESH_QUEUE);
    await eventually(
      async () =>
        (await existing(redis, [
          snapshotKeys.snapshot('trending'),
          snapshotKeys.snapshot('news'),
          snapshotKeys.snapshot('trending-cas'),
        ])) === 3
          ? true
          : undefined,
      20_000,
      'first snapshots',
    );
    const env = { NODE_ENV: 'test', ...shared.env, INDEX_API_URL: sim.url, LOG_LEVEL: 'silent' };
    apis.push(...(await Promise.all([startApiProcess('api-1', env), startApiProcess('api-2', env)])));
  });
  after(async () => {
    for (const client of clients) client.close();
    await Promise.all(apis.map(stopApiProcess));
    await queue?.close();
    await worker?.close(2000);
    await sim?.close();
    redis?.disconnect();
  });

  it('when the worker refreshes trending, then both processes send the same event (same id, same bytes) within a second of the write', async () => {
    const [one, two] = await Promise.all(apis.map((api) => SseClient.connect(`${api.url}/api/market/stream?topics=trending`)));
    clients.push(one!, two!);
    // Registered once the retry hint is in (the hub registers a client before it writes it).
    await eventually(() => (one!.retry !== undefined && two!.retry !== undefined ? true : undefined), 5000, 'the retry hints');
    const previous = Date.parse((await redis.get(snapshotKeys.version('trending'))) ?? '');
    sim.advanceClock(3_600_000);
    await requestRefresh(queue, 'refresh-trending');
    const ours = async (client: SseClient) =>
      eventually(() => client.events.find((e) => e.event === 'trending' && Number(e.id) > previous), 10_000, 'the refresh');
    const [a, b] = await Promise.all([ours(one!), ours(two!)]);
    expect(a.id).to.equal(b.id);
    expect(a.data).to.equal(b.data);
    // The snapshot body the worker wrote with that cachedAt, as history holds it.
    const [[, fields] = ['', []]] = await redis.xrange(historyKeys.events('trending'), a.id!, a.id!);
    expect(a.data).to.equal(fields[1]);
    const written = Date.parse((JSON.parse(a.data) as { cachedAt: string }).cachedAt);
    expect(String(written)).to.equal(a.id);
    // cachedAt is taken before the write, so this bounds arrival from the write from above.
    for (const event of [a, b]) expect(event.at - written).to.be.below(1000);
  });

  it('when one process gets SIGTERM, then its streams end at once, it exits quickly, and a client resuming on the other misses nothing', async () => {
    const [leaving, staying] = apis as [ApiProcess, ApiProcess];
    const client = await SseClient.connect(`${leaving.url}/api/market/stream`);
    clients.push(client);
    await eventually(() => client.retry, 5000, 'the retry hint');
    sim.advanceClock(3_600_000);
    await requestRefresh(queue, 'refresh-trending-cas');
    const [seen] = await client.waitFor(1, 'trending-cas');

    const started = Date.now();
    const exited = new Promise((resolve) => leaving.child.once('exit', resolve));
    leaving.child.kill('SIGTERM');
    await client.ended;
    const endedAfter = Date.now() - started;
    await exited;
    const exitedAfter = Date.now() - started;
    expect(endedAfter, 'stream ended (ms)').to.be.below(1000);
    expect(exitedAfter, 'process exited (ms)').to.be.below(10_000);

    // Missed while reconnecting:
    sim.advanceClock(3_600_000);
    await requestRefresh(queue, 'refresh-trending');
    const missedId = await eventually(
      async () => {
        const version = await redis.get(snapshotKeys.version('trending'));
        return version && Date.parse(version) > Number(seen!.id) ? String(Date.parse(version)) : undefined;
      },
      10_000,
      'the refresh while disconnected',
    );
    const resumed = await SseClient.connect(`${staying.url}/api/market/stream`, { 'Last-Event-ID': seen!.id! });
    clients.push(resumed);
    const events = await resumed.waitFor(1, 'trending');
    expect(events.map((e) => e.id)).to.include(missedId);
    expect(resumed.events.map((e) => e.id)).not.to.include(seen!.id);
  });
});
