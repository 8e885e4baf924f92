/**
 * The callers reads (docs/decisions.md#callers) through the whole stack on the simulator, with a
 * planted history beside the simulator's own: an account naming a token 3 h before its breakout is
 * its first caller with a 180-minute lead, one naming it after is none and its call is pending;
 * `?at=` before the breakout shows no hit, `?at=` at the live instant answers the live bytes; the
 * stats gain `calls`; each bad value is a 400 naming what is allowed. (Each read's route, fast
 * path and MCP tool: test/api/tables.test.ts.)
 */
import { expect } from 'chai';
import { recordCalls, recordTokenBreakouts } from '../../../apps/worker/src/callers/record-calls.js';
import { HOUR_MS } from '../../../shared/durations.js';
import type { NewsItem } from '../../../shared/market-types.js';
import { http } from '../../support/http.js';
import { startStack, whenReady, type Stack } from '../../support/stack.js';
import { SEED_STATS_FIELDS } from '../../support/seed-fields.js';

interface FirstCaller {
  username: string;
  leadMinutes: number;
  post: { id: string };
}
interface Board {
  data: { username: string; calls: number; hits: number; pending: number; hitRate: number | null; medianLeadMinutes: number | null }[];
  cachedAt: string;
}

describe('GET /api/market/tokens/:token/callers, /api/market/callers and the stats’ calls', function () {
  this.timeout(60_000);
  let stack: Stack;
  let live: number;
  let early: NewsItem;
  const url = (path: string) => `${stack.apiUrl}${path}`;

  before(async () => {
    stack = await startStack();
    await whenReady(stack);
    // The live instant: the latest refresh's cachedAt (news, trending, trending CAs).
    const times = await Promise.all(
      ['/api/market/news', '/api/market/trending', '/api/market/trending-cas'].map(async (path) =>
        Date.parse(((await http(url(path))).json as { cachedAt: string }).cachedAt),
      ),
    );
    live = Math.max(...times);
    const [someone] = ((await http(url('/api/market/news?limit=1'))).json as { data: NewsItem[] }).data;
    const { callers } = stack.config;
    const post = (id: string, author: string, atMs: number): NewsItem => ({
      id,
      text: `$PLANTED looks early (${id})`,
      author,
      authorFollowers: 1234,
      publishedAt: new Date(atMs).toISOString(),
      tokens: ['PLANTED'],
      engagementScore: 1,
    });
    // An account of the simulator's index (so its stats exist) names PLANTED 3 h before it breaks out; LateBird 30 min after.
    early = post('planted-early', someone!.author, live - 4 * HOUR_MS);
    await recordCalls(stack.redis, [early], live - 3.5 * HOUR_MS, callers);
    await recordTokenBreakouts(
      stack.redis,
      [{ token: 'PLANTED', name: 'P', mentions: 1, smartMoneyMentions: 1, priceChange24h: 0 }],
      live - HOUR_MS,
      callers,
    );
    await recordCalls(stack.redis, [post('planted-late', 'LateBird', live - 0.5 * HOUR_MS)], live - 0.25 * HOUR_MS, callers);
  });
  after(async () => {
    await stack?.close();
  });

  it('when an account named the token 3 h before its breakout, then it is the first caller with a 180-minute lead; one naming it after is none', async () => {
    const res = await http(url('/api/market/tokens/$planted/callers?window=7d'));
    expect(res.status).to.equal(200);
    const body = res.json as {
      token: string;
      window: string;
      breakouts: { at: string; callers: number; firstCallers: FirstCaller[] }[];
      cachedAt: string;
    };
    expect(body).to.include({ token: 'PLANTED', window: '7d', cachedAt: new Date(live).toISOString() });
    expect(body.breakouts).to.have.length(1);
    expect(body.breakouts[0]!.at).to.equal(new Date(live - HOUR_MS).toISOString());
    expect(body.breakouts[0]!.firstCallers.map(({ username, leadMinutes, post }) => [username, leadMinutes, post.id])).to.deep.equal([
      [early.author, 180, 'planted-early'],
    ]);
    expect(res.headers.get('etag')).to.be.a('string');
    const again = await http(url('/api/market/tokens/PLANTED/callers?window=7d'), {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).to.equal(304);
  });

  it('when the leaderboard is asked for by lead, then the early account leads with its one hit; the late one is pending, never a miss', async () => {
    // The simulator's own accounts have no hit yet: the stack's first trending refresh only seeded the top.
    const board = (await http(url('/api/market/callers?window=30d&minCalls=1&sort=lead'))).json as Board;
    expect(board.data[0]).to.include({ username: early.author, hits: 1, medianLeadMinutes: 180 });
    const late = (await http(url('/api/market/callers?window=30d&minCalls=1&sort=calls'))).json as Board;
    const row = late.data.find((r) => r.username === 'LateBird');
    if (row) expect(row).to.include({ calls: 1, hits: 0, pending: 1, hitRate: null, medianLeadMinutes: null });
  });

  it('when `at` is before the breakout, then the token has none and the early call is pending; at the live instant, the live bytes', async () => {
    const before = (await http(url(`/api/market/tokens/PLANTED/callers?window=7d&at=${new Date(live - 2 * HOUR_MS).toISOString()}`)))
      .json as {
      breakouts: unknown[];
      cachedAt: string;
    };
    expect(before).to.deep.equal({ token: 'PLANTED', window: '7d', breakouts: [], cachedAt: new Date(live - 2 * HOUR_MS).toISOString() });
    const board = (await http(url(`/api/market/callers?minCalls=1&at=${new Date(live - 2 * HOUR_MS).toISOString()}`))).json as Board;
    const earlyRow = board.data.find((r) => r.username === early.author)!;
    expect(earlyRow.pending).to.be.at.least(1);
    expect(board.data.find((r) => r.username === 'LateBird')).to.equal(undefined);

    const liveBody = await http(url('/api/market/callers?minCalls=1'));
    const atLive = await http(url(`/api/market/callers?minCalls=1&at=${new Date(live).toISOString()}`));
    expect(atLive.body.toString()).to.equal(liveBody.body.toString());
  });

  it('when an account’s stats are asked for, then they gain its calls over 30 days, the seed’s fields unchanged', async () => {
    const res = await http(url(`/api/market/stats/${early.author}`));
    expect(res.status).to.equal(200);
    const stats = res.json as Record<string, unknown> & { calls: { window: string; hits: number } };
    expect(Object.keys(stats)).to.include.members([...SEED_STATS_FIELDS]);
    expect(stats.calls.window).to.equal('30d');
    expect(stats.calls.hits).to.be.at.least(1);
  });

  const bad: [string, string][] = [
    ['/api/market/callers?window=1d', 'Invalid query parameter: window (allowed: 7d, 30d)'],
    ['/api/market/callers?sort=best', 'Invalid query parameter: sort (allowed: hitRate, lead, calls)'],
    ['/api/market/callers?minCalls=-1', 'Invalid query parameter: minCalls (a whole number from 0 to 9999)'],
    ['/api/market/callers?at=yesterday', 'Invalid query parameter: at'],
    ['/api/market/tokens/SOL/callers?window=24h', 'Invalid query parameter: window (allowed: 7d, 30d)'],
    ['/api/market/tokens/not-a-token!/callers', 'Invalid token (a ticker of 1-20 of [A-Za-z0-9] or a contract address)'],
  ];
  for (const [path, message] of bad)
    it(`when ${path}, then 400 "${message}"`, async () => {
      const res = await http(url(path));
      expect(res.status).to.equal(400);
      expect((res.json as { error: string }).error).to.equal(message);
    });

  it('when `at` reaches past the records kept, then 404', async () => {
    const res = await http(url(`/api/market/callers?at=${new Date(live - 40 * 24 * HOUR_MS).toISOString()}`));
    expect(res.status).to.equal(404);
  });
});
