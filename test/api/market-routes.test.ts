import { expect } from 'chai';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { NewsItem, TrendingCa, TrendingToken, UsernameStats } from '../../shared/market-types.js';
import { http, rawGet } from '../support/http.js';
import { eventually, startStack, type Stack } from '../support/stack.js';
import { SEED_STATS_FIELDS } from '../support/seed-fields.js';

interface Envelope<T> {
  data: T;
  cachedAt: string;
  pagination?: { page: number; limit: number; total: number };
}

describe('market routes, through HTTP against Redis, the worker and the simulator', () => {
  let stack: Stack;
  const get = (path: string, init?: RequestInit) => http(`${stack.apiUrl}${path}`, init);

  before(async () => {
    stack = await startStack();
    // The first start of the schedulers refreshes every snapshot at once.
    await eventually(async () => ((await get('/readyz')).status === 200 ? true : undefined), 15_000, 'readiness');
  });
  after(() => stack.close());

  describe('GET /api/market/trending', () => {
    it('when the snapshot is warm, then it answers the spec fields, ranked, with cachedAt', async () => {
      const res = await get('/api/market/trending');
      expect(res.status).to.equal(200);
      const body = res.json as Envelope<TrendingToken[]>;
      expect(body.data.length).to.be.at.least(40);
      for (const item of body.data) {
        expect(item).to.have.all.keys('token', 'name', 'mentions', 'smartMoneyMentions', 'priceChange24h');
        expect(item.token).to.match(/^[A-Z0-9]+$/);
      }
      const smart = body.data.map((item) => item.smartMoneyMentions);
      expect(smart).to.deep.equal([...smart].sort((a, b) => b - a));
      expect(Date.now() - Date.parse(body.cachedAt)).to.be.within(0, 60_000);
    });

    it('when read repeatedly, then cachedAt and the bytes stay put', async () => {
      const first = await get('/api/market/trending');
      const second = await get('/api/market/trending');
      expect(second.body.equals(first.body)).to.equal(true);
    });
  });

  describe('GET /api/market/trending-cas', () => {
    it('answers addresses in their chain formats', async () => {
      const res = await get('/api/market/trending-cas');
      expect(res.status).to.equal(200);
      const body = res.json as Envelope<TrendingCa[]>;
      expect(body.data.length).to.equal(30);
      expect(new Set(body.data.map((ca) => ca.chain)).size).to.be.at.least(3);
      for (const ca of body.data) {
        expect(ca).to.have.all.keys('address', 'chain', 'mentions', 'smartMoneyMentions', 'firstSeenAt');
        if (ca.chain === 'solana') expect(ca.address).to.match(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
        else expect(ca.address).to.match(/^0x[0-9a-fA-F]{40}$/);
        expect(new Date(ca.firstSeenAt).toISOString()).to.equal(ca.firstSeenAt);
      }
    });
  });

  describe('GET /api/market/news', () => {
    it('when no query is given, then page 1 of 20, newest first, with the pagination echo', async () => {
      const res = await get('/api/market/news');
      expect(res.status).to.equal(200);
      const body = res.json as Envelope<NewsItem[]>;
      expect(body.pagination).to.deep.equal({ page: 1, limit: 20, total: 1000 });
      expect(body.data).to.have.length(20);
      const item = body.data[0]!;
      expect(item).to.have.all.keys('id', 'text', 'author', 'authorFollowers', 'publishedAt', 'tokens', 'engagementScore');
      const times = body.data.map((news) => news.publishedAt);
      expect(times).to.deep.equal([...times].sort().reverse());
    });

    it('when pages are read in turn, then they are consecutive slices of one snapshot', async () => {
      const one = (await get('/api/market/news?limit=10&page=1')).json as Envelope<NewsItem[]>;
      const two = (await get('/api/market/news?limit=10&page=2')).json as Envelope<NewsItem[]>;
      const both = (await get('/api/market/news?limit=20&page=1')).json as Envelope<NewsItem[]>;
      expect([...one.data, ...two.data].map((n) => n.id)).to.deep.equal(both.data.map((n) => n.id));
      expect(one.cachedAt).to.equal(both.cachedAt);
    });

    it('when limit is above 50, then it is clamped and the echo says 50', async () => {
      const body = (await get('/api/market/news?limit=500')).json as Envelope<NewsItem[]>;
      expect(body.pagination).to.deep.equal({ page: 1, limit: 50, total: 1000 });
      expect(body.data).to.have.length(50);
    });

    it('when the page is past the end, then 200 with no items and the same echo', async () => {
      const res = await get('/api/market/news?page=999&limit=50');
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.include({ data: [], pagination: { page: 999, limit: 50, total: 1000 } });
    });

    for (const [name, value] of [
      ['limit', 'abc'],
      ['limit', '0'],
      ['limit', '-1'],
      ['limit', '2.5'],
      ['limit', '1e3'],
      ['limit', ''],
      ['page', 'abc'],
      ['page', '0'],
      ['page', '-1'],
      ['page', '2.5'],
      ['page', '1e3'],
      ['page', ''],
    ] as const) {
      it(`when ${name}=${JSON.stringify(value)}, then 400 naming the parameter`, async () => {
        const res = await get(`/api/market/news?${name}=${encodeURIComponent(value)}`);
        expect(res.status).to.equal(400);
        expect(res.json).to.deep.equal({ error: `Invalid query parameter: ${name}` });
      });
    }

    it('when a parameter is repeated, then 400', async () => {
      const res = await get('/api/market/news?limit=5&limit=6');
      expect(res.json).to.deep.equal({ error: 'Invalid query parameter: limit' });
    });

    describe('with ?token=', () => {
      /** Every post of the snapshot, read in pages of 50. */
      async function allPosts(): Promise<NewsItem[]> {
        const posts: NewsItem[] = [];
        for (let page = 1; ; page += 1) {
          const body = (await get(`/api/market/news?limit=50&page=${page}`)).json as Envelope<NewsItem[]>;
          posts.push(...body.data);
          if (body.data.length < 50) return posts;
        }
      }

      it('when a token is given in any case or with $, then only the posts that mention it, newest first, total counting them', async () => {
        const posts = await allPosts();
        const expected = posts.filter((post) => post.tokens.some((t) => t.toUpperCase() === 'BTC')).map((post) => post.id);
        expect(expected.length, 'the simulator mentions BTC').to.be.greaterThan(10);
        for (const asked of ['BTC', 'btc', '%24Btc']) {
          const first = (await get(`/api/market/news?token=${asked}&limit=10`)).json as Envelope<NewsItem[]>;
          expect(first.pagination, asked).to.deep.equal({ page: 1, limit: 10, total: expected.length });
          expect(
            first.data.map((post) => post.id),
            asked,
          ).to.deep.equal(expected.slice(0, 10));
        }
        const second = (await get('/api/market/news?token=btc&limit=10&page=2')).json as Envelope<NewsItem[]>;
        expect(second.data.map((post) => post.id)).to.deep.equal(expected.slice(10, 20));
      });

      it('when no post mentions the token, then 200 with an empty page and total 0', async () => {
        const res = await get('/api/market/news?token=ZZZZZZZZ');
        expect(res.status).to.equal(200);
        expect(res.json).to.deep.include({ data: [], pagination: { page: 1, limit: 20, total: 0 } });
      });

      for (const value of ['', 'not-a-ticker!', 'x'.repeat(21), '$']) {
        it(`when token=${JSON.stringify(value)}, then 400 naming the parameter`, async () => {
          const res = await get(`/api/market/news?token=${encodeURIComponent(value)}`);
          expect(res.status).to.equal(400);
          expect(res.json).to.deep.equal({ error: 'Invalid query parameter: token' });
        });
      }

      it('when token is repeated, then 400', async () => {
        expect((await get('/api/market/news?token=BTC&token=ETH')).json).to.deep.equal({ error: 'Invalid query parameter: token' });
      });
    });
  });

  describe('GET /api/market/stats/:username', () => {
    it('when the username is a tracked author, then its stats, spelled as the index does, even asked in another case with @', async () => {
      const canonical = stack.sim.trackedUsernames()[7]!;
      const asked = `@${canonical.toUpperCase()}`;
      const res = await get(`/api/market/stats/${encodeURIComponent(asked)}`);
      expect(res.status).to.equal(200);
      const stats = res.json as UsernameStats;
      // The seed's fields, and the account's record as a caller (docs/decisions.md#callers).
      expect(stats).to.have.all.keys(...SEED_STATS_FIELDS, 'calls');
      expect(stats.username).to.equal(canonical);
      expect(stats.indexScore).to.be.within(0, 100);
      const again = await get(`/api/market/stats/${canonical.toLowerCase()}`);
      expect(again.body.equals(res.body)).to.equal(true);
      expect(Number(/max-age=(\d+)/.exec(again.headers.get('cache-control') ?? '')?.[1])).to.be.within(3590, 3600);
    });

    it('when the username is valid but not in the index, then 404 with the spec message, remembered', async () => {
      stack.sim.resetStats();
      for (let i = 0; i < 3; i += 1) {
        const res = await get('/api/market/stats/nobody_here_x');
        expect(res.status).to.equal(404);
        expect(res.json).to.deep.equal({ error: 'Username not found in index' });
      }
      expect(stack.sim.stats()['/v1/accounts/:username']).to.equal(1);
    });

    for (const bad of ['has-dash', 'waytoolongusername16', 'sp%20ace', '%40', 'émile']) {
      it(`when the username is ${bad}, then 400 Invalid username`, async () => {
        const res = await get(`/api/market/stats/${bad}`);
        expect(res.status).to.equal(400);
        expect(res.json).to.deep.equal({ error: 'Invalid username' });
      });
    }
  });

  describe('HTTP conventions (docs/decisions.md#d1, #d9)', () => {
    it('when a path is unknown, then 404 JSON', async () => {
      for (const path of ['/nope', '/api/market', '/api/market/stats/']) {
        const res = await get(path);
        expect(res.status, path).to.equal(404);
        expect(res.json).to.deep.equal({ error: 'Not found' });
      }
    });

    it('when the method is wrong, then 405 JSON with Allow', async () => {
      const res = await get('/api/market/trending', { method: 'POST' });
      expect(res.status).to.equal(405);
      expect(res.json).to.deep.equal({ error: 'Method not allowed' });
      expect(res.headers.get('allow')).to.include('GET');
    });

    it('when If-None-Match carries the ETag, then 304 with no body', async () => {
      for (const path of ['/api/market/trending', '/api/market/news?page=2', '/api/market/trending-cas']) {
        const first = await get(path);
        const etag = first.headers.get('etag');
        expect(etag).to.match(/^"[\w-]+"$/);
        const second = await get(path, { headers: { 'If-None-Match': etag! } });
        expect(second.status, path).to.equal(304);
        expect(second.body.length).to.equal(0);
        expect(second.headers.get('etag')).to.equal(etag);
      }
    });

    it('sends Cache-Control counting down to the end of the 30-minute lifetime, and CORS', async () => {
      const res = await get('/api/market/trending');
      const maxAge = Number(/^public, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
      const left = (Date.parse((res.json as Envelope<unknown>).cachedAt) + 1800_000 - Date.now()) / 1000;
      expect(maxAge).to.be.within(left - 2, left + 1);
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    });

    it('compresses bodies of 1 KiB and more with br or gzip as the client accepts, not smaller ones', async () => {
      const plain = await rawGet(`${stack.apiUrl}/api/market/trending`, {});
      expect(plain.headers['content-encoding']).to.equal(undefined);
      const br = await rawGet(`${stack.apiUrl}/api/market/trending`, { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).to.equal('br');
      expect(brotliDecompressSync(br.body).equals(plain.body)).to.equal(true);
      const gzip = await rawGet(`${stack.apiUrl}/api/market/trending`, { 'Accept-Encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).to.equal('gzip');
      expect(gunzipSync(gzip.body).equals(plain.body)).to.equal(true);
      const small = await rawGet(`${stack.apiUrl}/api/market/news?limit=1&page=999`, { 'Accept-Encoding': 'gzip' });
      expect(small.headers['content-encoding']).to.equal(undefined);
    });

    it('echoes a sent X-Request-Id and generates one otherwise', async () => {
      const echoed = await get('/healthz', { headers: { 'X-Request-Id': 'abc-123' } });
      expect(echoed.headers.get('x-request-id')).to.equal('abc-123');
      const generated = [
        (await get('/healthz')).headers.get('x-request-id'),
        (await get('/api/market/trending')).headers.get('x-request-id'),
      ];
      for (const id of generated) expect(id).to.match(/^[\w-]{12}-[0-9a-z]+$/); // this process's tag, then a count
      expect(generated[0]).not.to.equal(generated[1]);
    });

    it('serves /healthz, /readyz and Prometheus /metrics', async () => {
      expect((await get('/healthz')).json).to.deep.equal({ status: 'ok' });
      expect((await get('/readyz')).json).to.deep.equal({ status: 'ready' });
      const metrics = await get('/metrics');
      expect(metrics.body.toString()).to.include('http_request_duration_seconds_bucket');
    });
  });
});
