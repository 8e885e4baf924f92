/** The hub on its own, with short timings: keep-alive comments, and a slow client dropped without the others noticing. */
import { createServer, type Server } from 'node:http';
import { connect as connectTcp, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { SnapshotWatch } from '../../../apps/api/src/market/snapshot-watch.js';
import { StreamHub, TOPICS } from '../../../apps/api/src/stream/stream-hub.js';
import { writeRefresh } from '../../../shared/history/history-store.js';
import { trendingEntries } from '../../../shared/history/refresh-entries.js';
import { createLogger } from '../../../shared/logger.js';
import { sharedTestRedis } from '../../support/redis-server.js';
import { freshKeyPrefix } from '../../support/shared-redis.js';
import { eventually } from '../../support/eventually.js';
import { SseClient } from '../../support/sse.js';

describe('StreamHub: keep-alive and slow clients', function () {
  this.timeout(60_000);
  let redis: Redis;
  let subscriber: Redis;
  let hub: StreamHub;
  let watch: SnapshotWatch;
  let server: Server;
  let url: string;

  before(async () => {
    const { url: redisUrl } = await sharedTestRedis();
    redis = new Redis(redisUrl, { protocol: 2 });
    freshKeyPrefix();
    subscriber = new Redis(redisUrl, { protocol: 2 });
    const logger = createLogger({ logLevel: 'silent' }, 'test');
    watch = new SnapshotWatch({ redis, subscriber, logger });
    hub = new StreamHub({ redis, watch, logger, maxClients: 10, keepAliveMs: 100, maxBufferedBytes: 256 * 1024 });
    await Promise.all([watch.start(), hub.start()]);
    server = createServer((req, res) => void hub.add(req, res, new Set(TOPICS), undefined, req.socket.remoteAddress ?? ''));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(async () => {
    hub.close();
    watch.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    subscriber.disconnect();
    redis.disconnect();
  });

  it('when nothing happens, then a comment line arrives every keep-alive period', async () => {
    const started = Date.now();
    const client = await SseClient.connect(url);
    await eventually(() => (client.comments.filter((c) => c === 'keep-alive').length >= 3 ? true : undefined), 5000, 'three keep-alives');
    // Not more often than the period: the third comes two full periods (100 ms) after the first at the earliest.
    expect(Date.now() - started).to.be.at.least(190);
    client.close();
  });

  it('when one client stops reading, then it is dropped once its buffer passes the bound, and the others get every event', async () => {
    const healthy = await SseClient.connect(url);
    // A raw socket that sends the request and then never reads.
    const stalled: Socket = connectTcp(Number(new URL(url).port), '127.0.0.1');
    stalled.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    stalled.pause();
    let stalledClosed = false;
    stalled.on('close', () => (stalledClosed = true));
    stalled.on('error', () => {});
    await eventually(() => (hub.size === 2 ? true : undefined), 5000, 'both clients registered');
    const body = 'x'.repeat(100_000);
    const start = Date.now() + 1;
    // 20 MB in all: more than the loopback's socket buffers hold for the stalled client.
    const count = 200;
    for (let i = 0; i < count; i += 1) {
      const fields = JSON.stringify({ data: [], cachedAt: new Date(start + i).toISOString(), pad: body });
      await writeRefresh(
        redis,
        {
          atMs: start + i,
          snapshots: [{ name: 'trending', body: fields, version: String(start + i) }],
          entries: trendingEntries(fields, []),
        },
        86_400_000,
      );
    }
    const events = await healthy.waitFor(count, 'trending', 20_000);
    expect(events.map((e) => Number(e.id))).to.deep.equal(Array.from({ length: count }, (_, i) => start + i));
    expect(hub.dropped).to.equal(1);
    expect(hub.size).to.equal(1);
    // Its connection was closed: once it reads again it finds the end after what was already sent.
    stalled.resume();
    for (let waited = 0; !stalledClosed && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stalledClosed).to.equal(true);
    healthy.close();
    stalled.destroy();
  });
});
