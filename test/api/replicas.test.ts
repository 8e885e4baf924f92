/**
 * Issue 5: a refresh is visible on every API replica within one second. Two API processes
 * (separate OS processes, as two dynos), one real Redis, the simulator and a real worker.
 */
import type { Queue } from 'bullmq';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { startSimulator, type Simulator } from '../../apps/index-sim/src/server.js';
import { createIndexClient } from '../../apps/worker/src/providers/index-client.js';
import { startWorker, type RunningWorker } from '../../apps/worker/src/worker.js';
import { snapshotChannel } from '../../shared/keyspace.js';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import { createLogger } from '../../shared/logger.js';
import { REFRESH_QUEUE, requestRefresh, type RefreshJobData } from '../../shared/queues.js';
import { startApiProcess, stopApiProcess, type ApiProcess } from '../support/api-process.js';
import { http } from '../support/http.js';
import { existing } from '../support/redis-keys.js';
import { sharedRedis } from '../support/shared-redis.js';
import { eventually } from '../support/stack.js';

/** What the issue promises: a new snapshot is served by every replica within a second. */
const VISIBLE_WITHIN_MS = 1000;
const READS = ['/api/market/trending', '/api/market/news'] as const;
type Read = (typeof READS)[number];

interface Served {
  etag: string;
  cachedAt: string;
  /**
   * When the request was sent (ms since epoch). What a replica serves is the copy it held when the
   * request came: the answer's own latency under a loaded machine is not the refresh's delay.
   */
  at: number;
}

async function read(api: ApiProcess, path: Read): Promise<Served> {
  const at = Date.now();
  const response = await http(`${api.url}${path}`);
  const body = response.json as { cachedAt: string };
  if (response.status !== 200) throw new Error(`${api.name} ${path}: ${response.status}`);
  return { etag: response.headers.get('etag') ?? '', cachedAt: body.cachedAt, at };
}

/** Every read from every API, as "api path" -> what it served. */
async function readAll(apis: ApiProcess[]): Promise<Map<string, Served>> {
  const pairs = apis.flatMap((api) => READS.map((path) => [api, path] as const));
  const served = await Promise.all(pairs.map(([api, path]) => read(api, path)));
  return new Map(pairs.map(([api, path], i) => [`${api.name} ${path}`, served[i]!]));
}

const sleepUntil = (epochMs: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, epochMs - Date.now())));

describe('two API processes over one Redis: a refresh reaches every replica within 1 s', function () {
  this.timeout(90_000);
  let redis: Redis;
  let subscriber: Redis;
  let sim: Simulator;
  let worker: RunningWorker;
  let queue: Queue<RefreshJobData>;
  const apis: ApiProcess[] = [];
  /** Announcements seen on the channel: snapshot name and when it arrived here. */
  const announcements: { name: string; at: number }[] = [];

  before(async () => {
    const shared = await sharedRedis();
    redis = shared.client();
    subscriber = shared.client('blocking');
    subscriber.on('message', (channel: string, name: string) => {
      if (channel === snapshotChannel()) announcements.push({ name, at: Date.now() });
    });
    await subscriber.subscribe(snapshotChannel());
    sim = await startSimulator();
    const logger = createLogger({ logLevel: 'silent' }, 'test');
    worker = await startWorker({ redis: shared.config, provider: createIndexClient({ baseUrl: sim.url, apiKey: undefined }), logger });
    queue = shared.queue<RefreshJobData>(REFRESH_QUEUE);
    // A new schedule runs at once: wait for the worker's first snapshots.
    await eventually(
      async () => ((await existing(redis, [snapshotKeys.snapshot('trending'), snapshotKeys.snapshot('news')])) === 2 ? true : undefined),
      20_000,
      'first snapshots',
    );
    const env = { NODE_ENV: 'test', ...shared.env, INDEX_API_URL: sim.url, LOG_LEVEL: 'silent' };
    apis.push(...(await Promise.all([startApiProcess('api-1', env), startApiProcess('api-2', env)])));
  });

  after(async () => {
    await Promise.all(apis.map(stopApiProcess));
    await queue?.close();
    await worker?.close(2000);
    await sim?.close();
    subscriber?.disconnect();
    redis?.disconnect();
  });

  it('when the worker refreshes, then both processes serve the new trending and news at their first request, within 1 s of the write', async () => {
    const before = await readAll(apis);
    for (const [what, served] of before) expect(served.etag, what).to.match(/^"/);
    announcements.length = 0;
    sim.advanceClock(2 * 3600_000);
    await requestRefresh(queue, 'refresh-trending');
    await requestRefresh(queue, 'refresh-news');
    const written = await eventually(
      () => {
        const trending = announcements.find((a) => a.name === 'trending');
        const news = announcements.find((a) => a.name === 'news');
        return trending && news ? Math.max(trending.at, news.at) : undefined;
      },
      10_000,
      'the worker to write and announce trending and news',
    );
    const versions = {
      '/api/market/trending': await redis.get(snapshotKeys.version('trending')),
      '/api/market/news': await redis.get(snapshotKeys.version('news')),
    };

    // No request reaches the APIs between their last read and this one, so a copy that is new
    // now was loaded on the announcement: a due re-check starts only on a request, and that
    // request is answered with the copy held. The one request comes just inside the second.
    await sleepUntil(written + VISIBLE_WITHIN_MS - 150);
    const after = await readAll(apis);
    for (const [what, served] of after) {
      const path = what.split(' ')[1] as Read;
      expect(served.cachedAt, `${what}: the worker's new snapshot`).to.equal(versions[path]);
      expect(served.etag, `${what}: a new ETag`).not.to.equal(before.get(what)?.etag);
      expect(served.at - written, `${what}: ms after the write`).to.be.at.most(VISIBLE_WITHIN_MS);
    }
    if (process.env.REPLICAS_DEBUG)
      console.log(
        'announced write -> read answered (ms)',
        [...after.values()].map((s) => s.at - written),
      );
  });

  it('when a snapshot is written without its announcement (a lost message), then both processes still serve it within about 1 s (the re-check)', async () => {
    // The worst case: each process has just re-checked Redis (a read a second after its last
    // check starts one), so the write lands at the start of a full re-check interval.
    await new Promise((resolve) => setTimeout(resolve, VISIBLE_WITHIN_MS + 100));
    const before = await readAll(apis);
    await new Promise((resolve) => setTimeout(resolve, 50));
    announcements.length = 0;
    // A write as the worker makes it, minus the PUBLISH.
    const cachedAt = new Date().toISOString();
    // One MULTI per snapshot, as each refresh job writes its own (they live in different slots on a cluster).
    const txs = [];
    for (const name of ['trending', 'news'] as const) {
      const old = JSON.parse((await redis.get(snapshotKeys.snapshot(name))) ?? '{}') as { data: unknown };
      txs.push(
        redis
          .multi()
          .set(snapshotKeys.snapshot(name), JSON.stringify({ data: old.data, cachedAt }))
          .set(snapshotKeys.version(name), cachedAt),
      );
    }
    await Promise.all(txs.map((tx) => tx.exec()));
    const written = Date.now();

    // Readers keep polling every 50 ms, as clients do; each process re-checks Redis on the first
    // request a second after its last check and serves the result from the next one on.
    const pickedUp = new Map<string, number>();
    const deadline = written + 3000;
    while (pickedUp.size < before.size && Date.now() < deadline) {
      for (const [what, served] of await readAll(apis)) {
        if (!pickedUp.has(what) && served.cachedAt === cachedAt) {
          expect(served.etag, what).not.to.equal(before.get(what)?.etag);
          pickedUp.set(what, served.at - written);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (process.env.REPLICAS_DEBUG) console.log('picked up after (ms)', Object.fromEntries(pickedUp));
    expect(announcements, 'no announcement was sent').to.deep.equal([]);
    expect([...pickedUp.keys()].sort(), 'served by both processes').to.deep.equal([...before.keys()].sort());
    // The re-check interval, plus one 50 ms poll to see the copy it loaded, plus scheduling slack.
    for (const [what, ms] of pickedUp) expect(ms, `${what}: ms after the write`).to.be.at.most(VISIBLE_WITHIN_MS + 250);
  });
});
