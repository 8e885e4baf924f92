/**
 * The fast path must be invisible: for every read it answers, Koa would have sent the same
 * status, headers and bytes; everything it declines reaches Koa unchanged.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../apps/api/src/app.js';
import { fastReads } from '../../../apps/api/src/routes/market/fast-reads.js';
import { MARKET_READS, READ_NAMES } from '../../../apps/api/src/market/reads.js';
import { stopWebServer } from '../../../apps/api/src/server.js';
import { http, rawGet } from '../../support/http.js';
import { pathOf } from '../../support/read-paths.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

type RawAnswer = Awaited<ReturnType<typeof rawGet>>;

/** History reads with a query, each prepared by a first read through Koa, then answered by the fast path. */
const HISTORY_QUERIES = [
  '/api/market/sentiment/BTC/history?interval=1h&from=2026-01-01T00:00:00Z',
  '/api/market/tokens/BTC/history?interval=1d',
];

/**
 * Headers that legitimately differ between two responses sent a moment apart. The RateLimit
 * fields come only with the response that spent a stats miss (the first of two asks for an
 * unknown name; the second is a remembered 404, free).
 */
const PER_RESPONSE = new Set(['date', 'keep-alive', 'connection', 'cache-control', 'ratelimit', 'ratelimit-policy']);

function comparable(answer: RawAnswer) {
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !PER_RESPONSE.has(name)));
  const cacheControl = String(answer.headers['cache-control']).replace(/max-age=\d+/, 'max-age=N');
  return { status: answer.status, headers, cacheControl, body: answer.body.toString('base64') };
}

const maxAge = (answer: RawAnswer) => Number(/max-age=(\d+)/.exec(String(answer.headers['cache-control']))?.[1] ?? -1);

/** Same status, headers and bytes; max-age counts down, so two answers may straddle a second. */
function expectSame(fast: RawAnswer, koa: RawAnswer, what: string): void {
  expect(comparable(fast), what).to.deep.equal(comparable(koa));
  expect(Math.abs(maxAge(fast) - maxAge(koa)), `${what}: max-age`).to.be.at.most(1);
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('fast path for cached reads', () => {
  let stack: Stack;
  let withFastPath: Server;
  let koaOnly: Server;
  let fastUrl: string;
  let koaUrl: string;
  let answeredFast = 0;
  let username: string;
  let storyId: string;

  before(async () => {
    stack = await startStack();
    await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 15_000, 'readiness');
    const koa = createApp(stack.deps).callback();
    const fast = fastReads(stack.deps);
    withFastPath = createServer((req, res) => {
      if (fast(req, res)) answeredFast += 1;
      else void koa(req, res);
    });
    koaOnly = createServer((req, res) => void koa(req, res));
    fastUrl = await listen(withFastPath);
    koaUrl = await listen(koaOnly);
    username = stack.sim.trackedUsernames()[0] ?? 'none';
    // A story the simulator planted (apps/index-sim/src/planted-stories.ts).
    storyId = ((await http(`${koaUrl}/api/market/stories?window=7d`)).json as { data: { id: string }[] }).data[0]?.id ?? 'none';
    // The copies in memory are made by a first read through the API, as in production.
    for (const path of [...tableReads(), ...HISTORY_QUERIES]) {
      expect((await http(`${koaUrl}${path}`)).status, path).to.equal(200);
    }
  });
  after(async () => {
    await stopWebServer(withFastPath, { idleCloseMs: 0 });
    await stopWebServer(koaOnly, { idleCloseMs: 0 });
    await stack.close();
  });

  /** Sends the same request to both servers; returns both answers and whether the fast path took it. */
  async function both(path: string, headers: Record<string, string> = {}) {
    const sent = { 'X-Request-Id': 'parity-check', ...headers };
    // A stats hit is held in memory for 1 s: renew it, so a slow machine does not send the read to Koa.
    if (path.includes('/stats/')) await stack.deps.stats.get(username.toLowerCase());
    const before = answeredFast;
    const fast = await rawGet(`${fastUrl}${path}`, sent);
    const tookFast = answeredFast > before;
    const koa = await rawGet(`${koaUrl}${path}`, sent);
    return { fast, koa, tookFast };
  }

  /** Every read of the table with example parameters: a new read is checked here without a new test. */
  const tableReads = () => READ_NAMES.map((name) => pathOf(MARKET_READS[name], { token: 'BTC', username, id: storyId }));

  /** The table's reads, then queries and spellings of the same reads. */
  const reads = () => [
    ...tableReads(),
    ...HISTORY_QUERIES,
    '/api/market/sentiment/%24btc/history',
    '/api/market/news?page=3&limit=50',
    '/api/market/news?limit=500',
    '/api/market/news?page=9999',
    '/api/market/news?token=btc&limit=5',
    '/api/market/news?token=%24BTC&page=2&limit=3',
    '/api/market/news?token=ZZZZZZZZ',
    '/api/market/sentiment/%24btc',
    '/sentiment/eth',
    `/api/market/stats/@${username.toUpperCase()}`,
  ];

  for (const encoding of [undefined, 'gzip', 'br', 'gzip, deflate, br', 'br;q=0, gzip;q=0.5', 'identity']) {
    it(`answers every cached read as Koa would, byte for byte (Accept-Encoding: ${encoding ?? 'none'})`, async () => {
      for (const path of reads()) {
        const { fast, koa, tookFast } = await both(path, encoding ? { 'Accept-Encoding': encoding } : {});
        expect(tookFast, `${path} taken by the fast path`).to.equal(true);
        expect(fast.status, path).to.equal(200);
        expectSame(fast, koa, path);
      }
    });
  }

  it('revalidates with 304 exactly as Koa does', async () => {
    for (const path of reads()) {
      const etag = (await rawGet(`${koaUrl}${path}`, {})).headers.etag as string;
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
        const { fast, koa, tookFast } = await both(path, { 'If-None-Match': ifNoneMatch });
        expect(tookFast, path).to.equal(true);
        expect(fast.status, path).to.equal(304);
        expectSame(fast, koa, path);
      }
    }
  });

  it('leaves errors, misses, other methods and unknown routes to Koa', async () => {
    for (const path of [
      '/api/market/news?page=abc',
      '/api/market/news?limit=0',
      '/api/market/news?token=not-a-ticker!',
      '/api/market/news?token=BTC&token=ETH',
      '/api/market/sentiment/NOPE',
      '/api/market/sentiment/not-a-ticker!',
      '/sentiment/%E0%A4%A',
      '/api/market/stats/no_such_user_x',
      '/api/market/stats/bad-name!',
      '/api/market/trending/extra',
      '/api/market/nope',
      `/api/market/trending?at=${new Date().toISOString()}`,
      '/api/market/sentiment/BTC/history?interval=2h',
      '/api/market/sentiment/BTC/history?interval=4h',
      '/api/market/sentiment/NOPE/history',
      '/api/market/tokens/bad!/history',
      '/healthz',
    ]) {
      const { fast, koa, tookFast } = await both(path);
      expect(tookFast, `${path} declined`).to.equal(false);
      expectSame(fast, koa, path);
    }
    const before = answeredFast;
    const head = await http(`${fastUrl}/api/market/trending`, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(answeredFast).to.equal(before);
  });

  it('logs and counts its reads like Koa does', async () => {
    await rawGet(`${fastUrl}/api/market/trending`, {});
    const metrics = await stack.deps.metrics.registry.getSingleMetricAsString('http_request_duration_seconds');
    expect(metrics).to.match(/http_request_duration_seconds_count\{method="GET",route="\/api\/market\/trending",status="200"\} [1-9]/);
  });
});
