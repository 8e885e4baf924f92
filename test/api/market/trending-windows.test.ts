/**
 * `?window=` on the trending lists (shared/trending-windows.ts): each configured window is a
 * snapshot of its own, served through REST, the fast path and MCP, with its own cachedAt, ETag,
 * history (`at`) and stream topic; the list without `window` is the 24 h one, byte for byte; a
 * window not configured is a 400 naming the configured ones.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../apps/api/src/app.js';
import { fastReads } from '../../../apps/api/src/routes/market/fast-reads.js';
import { stopWebServer } from '../../../apps/api/src/server.js';
import { snapshotKeys } from '../../../shared/snapshot-keys.js';
import { activeSnapshots } from '../../../shared/snapshot-kinds.js';
import { http, rawGet } from '../../support/http.js';
import { SseClient } from '../../support/sse.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { existing } from '../../support/redis-keys.js';
import { callTool, connectMcp, textOf } from '../mcp/helpers.js';

const CONFIGURED = ['1h', '24h', '7d'] as const;
const LISTS = ['trending', 'trending-cas'] as const;

describe('GET /api/market/trending and /trending-cas with ?window=', function () {
  this.timeout(60_000);
  let stack: Stack;
  let mcp: Client;

  before(async () => {
    stack = await startStack({ env: { TRENDING_WINDOWS: '7d,1h' } });
    const snapshots = activeSnapshots(CONFIGURED);
    await eventually(
      async () => ((await existing(stack.redis, snapshots.map(snapshotKeys.snapshot))) === snapshots.length ? true : undefined),
      30_000,
      'every configured window refreshed',
    );
    mcp = await connectMcp(stack.apiUrl);
  });
  after(async () => {
    await mcp?.close();
    await stack?.close();
  });

  it('reads TRENDING_WINDOWS in the canonical order, 24h always among them', () => {
    expect(stack.config.trendingWindows).to.deep.equal(CONFIGURED);
  });

  for (const list of LISTS) {
    it(`${list}: without window, the same bytes and ETag as window=24h`, async () => {
      const plain = await rawGet(`${stack.apiUrl}/api/market/${list}`, {});
      const day = await rawGet(`${stack.apiUrl}/api/market/${list}?window=24h`, {});
      expect(plain.status).to.equal(200);
      expect(day.body.equals(plain.body)).to.equal(true);
      expect(day.headers.etag).to.equal(plain.headers.etag);
    });

    it(`${list}: each configured window is its own snapshot, with its own cachedAt and ETag, and a 304 on its ETag`, async () => {
      const etags = new Set<string>();
      for (const window of CONFIGURED) {
        const res = await http(`${stack.apiUrl}/api/market/${list}?window=${window}`);
        expect(res.status, window).to.equal(200);
        const body = res.json as { data: { mentions: number }[]; cachedAt: string };
        expect(body.data.length, window).to.be.greaterThan(0);
        const stored = JSON.parse((await stack.redis.get(snapshotKeys.snapshot(window === '24h' ? list : `${list}@${window}`)))!) as {
          cachedAt: string;
        };
        expect(body.cachedAt, window).to.equal(stored.cachedAt);
        const etag = res.headers.get('etag')!;
        etags.add(etag);
        const again = await http(`${stack.apiUrl}/api/market/${list}?window=${window}`, { headers: { 'If-None-Match': etag } });
        expect(again.status, window).to.equal(304);
      }
      expect(etags.size).to.equal(CONFIGURED.length);
    });

    it(`${list}: a window not configured, or not a window, is a 400 naming the configured ones`, async () => {
      for (const window of ['30d', '4h', '2h', '']) {
        const res = await http(`${stack.apiUrl}/api/market/${list}?window=${window}`);
        expect(res.status, window).to.equal(400);
        expect(res.json, window).to.deep.equal({
          error: 'Invalid query parameter: window: the configured windows are 1h, 24h, 7d',
        });
      }
    });

    it(`${list}: with at, the window's own snapshot of that instant`, async () => {
      const now = (await http(`${stack.apiUrl}/api/market/${list}?window=1h`)).json as { cachedAt: string };
      const res = await http(`${stack.apiUrl}/api/market/${list}?window=1h&at=${encodeURIComponent(now.cachedAt)}`);
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.equal(now);
    });
  }

  it('the 1 h list counts fewer mentions than the 24 h one, the 7 d list more (the simulator counts over the window)', async () => {
    const sum = async (window: string) =>
      ((await http(`${stack.apiUrl}/api/market/trending?window=${window}`)).json as { data: { mentions: number }[] }).data.reduce(
        (total, item) => total + item.mentions,
        0,
      );
    const [hour, day, week] = [await sum('1h'), await sum('24h'), await sum('7d')];
    expect(hour).to.be.lessThan(day);
    expect(week).to.be.greaterThan(day);
  });

  it('the fast path answers each window as Koa does, and leaves a window not configured to Koa', async () => {
    let answeredFast = 0;
    const koa = createApp(stack.deps).callback();
    const fast = fastReads(stack.deps);
    const servers: Server[] = [
      createServer((req, res) => {
        if (fast(req, res)) answeredFast += 1;
        else void koa(req, res);
      }),
      createServer((req, res) => void koa(req, res)),
    ];
    const [fastUrl, koaUrl] = await Promise.all(
      servers.map(
        (server) =>
          new Promise<string>((resolve) =>
            server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
          ),
      ),
    );
    try {
      for (const path of ['/api/market/trending?window=1h', '/api/market/trending-cas?window=7d', '/api/market/trending?window=24h']) {
        expect((await rawGet(`${koaUrl}${path}`, {})).status, path).to.equal(200);
        const before = answeredFast;
        const viaFast = await rawGet(`${fastUrl}${path}`, { 'X-Request-Id': 'windows' });
        expect(answeredFast, path).to.equal(before + 1);
        const viaKoa = await rawGet(`${koaUrl}${path}`, { 'X-Request-Id': 'windows' });
        expect(viaFast.body.equals(viaKoa.body), path).to.equal(true);
        expect(viaFast.headers.etag, path).to.equal(viaKoa.headers.etag);
      }
      const before = answeredFast;
      expect((await rawGet(`${fastUrl}/api/market/trending?window=30d`, {})).status).to.equal(400);
      expect(answeredFast).to.equal(before);
    } finally {
      await Promise.all(servers.map((server) => stopWebServer(server, { idleCloseMs: 0 })));
    }
  });

  it('MCP: trending_tokens and trending_contracts take window and answer its REST body; a window not configured is an error', async () => {
    for (const [tool, list] of [
      ['trending_tokens', 'trending'],
      ['trending_contracts', 'trending-cas'],
    ] as const) {
      const rest = await http(`${stack.apiUrl}/api/market/${list}?window=1h`);
      const result = await callTool(mcp, tool, { window: '1h' });
      expect(result.isError ?? false, tool).to.equal(false);
      expect(result.structuredContent, tool).to.deep.equal(rest.json);
      const refused = await callTool(mcp, tool, { window: '30d' });
      expect(refused.isError, tool).to.equal(true);
      expect(textOf(refused), tool).to.contain('the configured windows are 1h, 24h, 7d');
    }
  });

  it('readiness waits for each configured window', async () => {
    // Before any refresh is asked for below, so that no run of it is on its way to write it back.
    expect((await http(`${stack.apiUrl}/readyz`)).status).to.equal(200);
    await stack.redis.del(snapshotKeys.snapshot('trending@7d'), snapshotKeys.version('trending@7d'));
    const notReady = await http(`${stack.apiUrl}/readyz`);
    expect(notReady.status).to.equal(503);
    expect(JSON.stringify(notReady.json)).to.contain('trending@7d');
  });

  it('each configured window is a stream topic of its own', async () => {
    const client = await SseClient.connect(`${stack.apiUrl}/api/market/stream?topics=trending@1h`, {});
    try {
      expect(client.status).to.equal(200);
      await eventually(() => client.retry, 5000, 'the retry hint');
      await stack.deps.refreshAll();
      const [event] = await client.waitFor(1, 'trending@1h');
      expect(event).to.not.equal(undefined);
    } finally {
      client.close();
    }
    // The refresh asked for above writes the 7 d list back.
    await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 20_000, 'ready again');
  });

  it('a stream topic of a window not configured is a 400 naming the configured ones', async () => {
    for (const topics of ['trending@30d', 'news,trending-cas@4h']) {
      const client = await SseClient.connect(`${stack.apiUrl}/api/market/stream?topics=${topics}`, {});
      expect(client.status, topics).to.equal(400);
      expect(JSON.parse(client.body), topics).to.deep.equal({
        error: 'Invalid query parameter: topics: the configured windows are 1h, 24h, 7d',
      });
    }
  });
});
