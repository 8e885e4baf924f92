/**
 * Bounded answers (apps/worker/src/providers/upstream-http.ts), through both clients that use it: the index
 * client (INDEX_PROVIDER=index) and the providers' HTTP path (Elfa, CoinGecko, X). Loopback
 * servers play a hostile upstream: a body too large, a body that never ends, a redirect to
 * another host, a list far longer than asked for.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { createIndexClient } from '../../../apps/worker/src/providers/index-client.js';
import { refreshList } from '../../../apps/worker/src/jobs/refresh-list.js';
import { createProviderHttp, MAX_BODY_BYTES, MAX_LIST_ITEMS } from '../../../apps/worker/src/providers/upstream-http.js';
import { UpstreamError } from '../../../apps/worker/src/providers/upstream-error.js';
import { readSnapshot } from '../../../shared/snapshot-store.js';
import { sharedTestRedis } from '../../support/redis-server.js';
import { freshKeyPrefix } from '../../support/shared-redis.js';
import { createJobContext } from '../../../apps/worker/src/jobs/create-job-context.js';

const KEY = 'upstream-secret-key-1234';

interface Loopback {
  url: string;
  /** Headers of every request received. */
  received: IncomingHttpHeaders[];
  /** Connections the server saw closed by the client before the answer ended. */
  aborted: number;
  close(): Promise<void>;
}

async function loopback(host: string, answer: (res: ServerResponse, loop: Loopback) => void): Promise<Loopback> {
  const sockets = new Set<import('node:net').Socket>();
  const loop: Loopback = { url: '', received: [], aborted: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    loop.received.push(req.headers);
    res.on('close', () => {
      if (!res.writableFinished) loop.aborted += 1;
    });
    answer(res, loop);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  loop.url = `http://${host}:${(server.address() as AddressInfo).port}`;
  loop.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return loop;
}

const token = (i: number) => ({ symbol: `T${i}`, name: `Token ${i}`, mentions: 10, smart_mentions: 1, price_change_24h: 0 });

/** The two clients over the same call: a trending list, with a key header. */
const CLIENTS: Record<string, (baseUrl: string, redis: Redis) => () => Promise<unknown[]>> = {
  'the index client': (baseUrl) => {
    const client = createIndexClient({ baseUrl, apiKey: KEY, listTimeoutMs: 5_000 });
    return () => client.trendingTokens();
  },
  "the providers' HTTP path": (baseUrl, redis) => {
    const http = createProviderHttp({
      provider: 'elfa',
      baseUrl,
      headers: { 'x-elfa-api-key': KEY },
      secrets: [KEY],
      keyVariable: 'ELFA_API_KEY',
      redis,
      logger: pino({ level: 'silent' }),
      count: () => {},
      timeoutMs: 5_000,
      outOfCreditsUntil: (now) => now,
    });
    return async () => ((await http.get('/v1/trending/tokens')).body as { tokens: unknown[] }).tokens;
  },
};

async function rejection(promise: Promise<unknown>): Promise<UpstreamError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, 'expected the call to fail').to.be.instanceOf(UpstreamError);
  return outcome as UpstreamError;
}

describe('bounded upstream answers (docs/providers.md, "Bounded answers")', () => {
  let redis: Redis;
  const servers: Loopback[] = [];
  const serve = async (answer: (res: ServerResponse, loop: Loopback) => void, host = '127.0.0.1') => {
    const server = await loopback(host, answer);
    servers.push(server);
    return server;
  };

  before(async () => {
    redis = new Redis((await sharedTestRedis()).url, { protocol: 2 });
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  after(() => redis.disconnect());

  for (const [name, make] of Object.entries(CLIENTS)) {
    describe(`through ${name}`, () => {
      it('when the body is larger than the cap (valid JSON, Content-Length declared), then an upstream error not retried, and the body is not read', async () => {
        const tokens = Array.from({ length: 60_000 }, (_, i) => token(i));
        const body = JSON.stringify({ tokens });
        expect(body.length).to.be.above(MAX_BODY_BYTES);
        const server = await serve((res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
          res.end(body);
        });
        const error = await rejection(make(server.url, redis)());
        expect(error.message).to.match(/body over \d+ bytes/);
        expect(error.retryable).to.equal(false);
        expect(error.message).not.to.contain(KEY);
      });

      it('when the body never ends (chunked, no length), then the read stops at the cap, long before the timeout, and the connection is dropped', async () => {
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const server = await serve((res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"tokens":[');
          const timer = setInterval(() => res.write(chunk), 1);
          res.on('close', () => clearInterval(timer));
        });
        const started = Date.now();
        const error = await rejection(make(server.url, redis)());
        expect(error.message).to.match(/body over \d+ bytes/);
        expect(Date.now() - started).to.be.below(4_000);
        await waitFor(() => server.aborted === 1);
      });

      it('when the upstream redirects to another host, then the redirect is not followed and the key never arrives there', async () => {
        const elsewhere = await serve((res) => res.end('{"tokens":[]}'), 'localhost');
        const server = await serve((res) => {
          res.writeHead(302, { location: `${elsewhere.url}/v1/trending/tokens` });
          res.end();
        });
        const error = await rejection(make(server.url, redis)());
        expect(error.message).to.match(/HTTP 302, a redirect \(not followed\)/);
        expect(error.retryable).to.equal(false);
        expect(server.received[0]?.['x-api-key'] ?? server.received[0]?.['x-elfa-api-key']).to.equal(KEY);
        expect(elsewhere.received).to.have.length(0);
      });

      it(`when a list is far longer than asked for, then it is cut to its first ${MAX_LIST_ITEMS} items before it is parsed`, async () => {
        const body = JSON.stringify({ tokens: Array.from({ length: 5_000 }, (_, i) => token(i)) });
        const server = await serve((res) => res.end(body));
        const list = await make(server.url, redis)();
        expect(list).to.have.length(MAX_LIST_ITEMS);
        expect(list[0]).to.include({ name: 'Token 0' });
      });
    });
  }

  it('when a refresh meets an oversized body, then the job fails and the stored snapshot and its cachedAt stay as they were', async () => {
    let oversized = false;
    const small = JSON.stringify({ tokens: [token(1), token(2)] });
    const large = JSON.stringify({ tokens: Array.from({ length: 60_000 }, (_, i) => token(i)) });
    const server = await serve((res) => res.end(oversized ? large : small));
    freshKeyPrefix();
    const context = createJobContext({
      redis,
      provider: createIndexClient({ baseUrl: server.url, apiKey: KEY }),
      logger: pino({ level: 'silent' }),
      now: () => new Date(),
      historyMs: 0,
    });
    await refreshList(context, 'trending');
    const stored = await readSnapshot(redis, 'trending');
    expect(stored).to.not.equal(null);

    oversized = true;
    const error = await rejection(refreshList(context, 'trending'));
    expect(error.message).to.match(/body over/);
    expect(await readSnapshot(redis, 'trending')).to.deep.equal(stored);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('an index posts cursor that never ends (issue 38 item 9)', () => {
  it('when every page of /v1/posts names a next cursor, then the read stops after the pages its max needs and a few more, and fails', async () => {
    const post = {
      id: 'p1',
      text: 'the same post again',
      author: { username: 'alice', followers: 1 },
      created_at: new Date().toISOString(),
      tokens: [],
      engagement: 0,
    };
    let page = 0;
    const upstream = await loopback('127.0.0.1', (res) => {
      page += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ posts: [post], next_cursor: `c${page}` }));
    });
    try {
      const client = createIndexClient({ baseUrl: upstream.url, apiKey: undefined });
      const error = await client.posts(new Date(Date.now() - 3_600_000), 1_000).then(
        () => expect.fail('expected the read to fail'),
        (thrown: unknown) => thrown,
      );
      expect(error).to.be.instanceOf(UpstreamError);
      expect((error as UpstreamError).message).to.match(/^v1\/posts: more than 6 pages for 1000 posts at most: the cursor does not end/);
      expect((error as UpstreamError).retryable).to.equal(false);
      expect(upstream.received).to.have.length(6);
    } finally {
      await upstream.close();
    }
  });
});
