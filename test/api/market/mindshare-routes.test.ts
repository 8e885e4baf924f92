/**
 * GET /api/market/mindshare and /api/market/tokens/:token/mindshare (docs/decisions.md#d20)
 * through the whole stack: the figures are recomputed here from the posts GET /api/market/news
 * serves, as the decision says a user can; each bad value is a 400 naming it. (Each read's route,
 * fast path and MCP tool: test/api/tables.test.ts.)
 */
import { expect } from 'chai';
import { HOUR_MS } from '../../../shared/durations.js';
import { http } from '../../support/http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

interface Post {
  id: string;
  author: string;
  publishedAt: string;
  tokens: string[];
  engagementScore: number;
}
interface Item {
  token: string;
  share: number;
  mentions: number;
  authors: number;
  engagement: number;
  shareChange: number | null;
}

describe('GET /api/market/mindshare and /api/market/tokens/:token/mindshare', function () {
  this.timeout(60_000);
  let stack: Stack;
  let posts: Post[];

  before(async () => {
    stack = await startStack();
    await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 30_000, 'ready');
    posts = [];
    for (let page = 1; ; page++) {
      const body = (await http(`${stack.apiUrl}/api/market/news?limit=50&page=${page}`)).json as { data: Post[] };
      if (body.data.length === 0) break;
      posts.push(...body.data);
    }
  });
  after(async () => {
    await stack?.close();
  });

  it('the 24h list is what the news posts of the last 24 UTC hours give, recomputed by hand', async () => {
    const res = await http(`${stack.apiUrl}/api/market/mindshare`);
    expect(res.status).to.equal(200);
    const body = res.json as { window: string; data: Item[]; cachedAt: string };
    expect(body.window).to.equal('24h');
    const from = Math.floor(Date.parse(body.cachedAt) / HOUR_MS) * HOUR_MS - 23 * HOUR_MS;
    const byToken = new Map<string, { mentions: number; authors: Set<string>; engagement: number }>();
    let total = 0;
    for (const post of posts) {
      if (Date.parse(post.publishedAt) < from) continue;
      for (const token of new Set(post.tokens.map((t) => t.replace(/^\$/, '').toUpperCase()))) {
        const entry = byToken.get(token) ?? { mentions: 0, authors: new Set<string>(), engagement: 0 };
        entry.mentions += 1;
        entry.authors.add(post.author);
        entry.engagement += post.engagementScore;
        byToken.set(token, entry);
        total += 1;
      }
    }
    expect(total).to.be.greaterThan(0);
    const expected = [...byToken]
      .sort(([a, x], [b, y]) => y.mentions - x.mentions || a.localeCompare(b))
      .slice(0, 100)
      .map(([token, { mentions, authors, engagement }]) => ({
        token,
        share: Math.round((mentions / total) * 10_000) / 10_000,
        mentions,
        authors: authors.size,
        engagement: Math.round(engagement * 10_000) / 10_000,
      }));
    expect(
      body.data.map(({ token, share, mentions, authors, engagement }) => ({ token, share, mentions, authors, engagement })),
    ).to.deep.equal(expected);
  });

  it('each window answers with its own list, the same cachedAt, and a 304 on its ETag', async () => {
    for (const window of ['1h', '24h', '7d', '30d']) {
      const res = await http(`${stack.apiUrl}/api/market/mindshare?window=${window}`);
      expect(res.status, window).to.equal(200);
      expect((res.json as { window: string }).window, window).to.equal(window);
      const again = await http(`${stack.apiUrl}/api/market/mindshare?window=${window}`, {
        headers: { 'If-None-Match': res.headers.get('etag')! },
      });
      expect(again.status, window).to.equal(304);
    }
  });

  it('a token’s points over 24h sum to its mentions in the 24h list, one point per hour', async () => {
    const list = (await http(`${stack.apiUrl}/api/market/mindshare`)).json as { data: Item[] };
    const top = list.data[0]!;
    const res = await http(`${stack.apiUrl}/api/market/tokens/${top.token.toLowerCase()}/mindshare`);
    expect(res.status).to.equal(200);
    const body = res.json as { token: string; window: string; interval: string; points: { at: string; share: number; mentions: number }[] };
    expect(body).to.include({ token: top.token, window: '24h', interval: '1h' });
    expect(body.points).to.have.length(24);
    expect(body.points.reduce((sum, point) => sum + point.mentions, 0)).to.equal(top.mentions);
    // 7d is counted per day: its interval is 1d, asked for or not.
    const daily = (await http(`${stack.apiUrl}/api/market/tokens/${top.token}/mindshare?window=7d`)).json as {
      interval: string;
      points: { at: string }[];
    };
    expect(daily.interval).to.equal('1d');
    expect(daily.points).to.have.length(7);
    for (const point of daily.points) expect(Date.parse(point.at) % (24 * HOUR_MS)).to.equal(0);
  });

  it('a bad window, interval or token is a 400 naming it', async () => {
    const cases: [string, string][] = [
      ['/api/market/mindshare?window=4h', 'Invalid query parameter: window'],
      ['/api/market/tokens/SOL/mindshare?window=2d', 'Invalid query parameter: window'],
      ['/api/market/tokens/SOL/mindshare?interval=30m', 'Invalid query parameter: interval'],
      ['/api/market/tokens/SOL/mindshare?window=30d&interval=4h', 'Invalid query parameter: interval (window 30d is counted per day: 1d)'],
      ['/api/market/tokens/S-L/mindshare', 'Invalid token'],
    ];
    for (const [path, error] of cases) {
      const res = await http(`${stack.apiUrl}${path}`);
      expect(res.status, path).to.equal(400);
      expect(res.json, path).to.deep.equal({ error });
    }
  });
});
