/**
 * GET /api/export through the whole stack: four refreshes run by the worker's own jobs at pinned
 * times, then exported; each list state equals what `?at=` answers for its instant, the stream
 * events are those the refreshes wrote, paging changes nothing, and the budget answers 429.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { createIndexClient } from '../../../apps/worker/src/providers/index-client.js';
import { createJobContext } from '../../../apps/worker/src/jobs/create-job-context.js';
import { refreshNews } from '../../../apps/worker/src/jobs/refresh-news.js';
import { refreshList } from '../../../apps/worker/src/jobs/refresh-list.js';
import { exportStates, EXPORT_KINDS, xrangePage } from '../../../shared/history/export-states.js';
import { historyKeys } from '../../../shared/snapshot-keys.js';
import { createLogger } from '../../../shared/logger.js';
import { createRedis } from '../../../shared/redis.js';
import { http } from '../../support/http.js';
import { startStack, type Stack } from '../../support/stack.js';
import { seedUser, tokenFor } from '../auth/helpers.js';

const HALF_HOUR = 30 * 60_000;
const DAY = 86_400_000;

interface Line {
  kind: string;
  id: string;
  cachedAt: string;
  state: { cachedAt: string; data: unknown };
}

describe('GET /api/export: the stored states of a range, for backtests', function () {
  this.timeout(60_000);
  let stack: Stack;
  let worker: Redis;
  let token: string;
  const times: number[] = [];
  const get = (path: string, auth = token) => http(`${stack.apiUrl}${path}`, { headers: { Authorization: `Bearer ${auth}` } });

  before(async () => {
    stack = await startStack({ workers: 0 });
    worker = createRedis(stack.config, 'worker', 'test-export');
    let clock = 0;
    const context = createJobContext({
      redis: worker,
      provider: createIndexClient({ baseUrl: stack.sim.url, apiKey: undefined }),
      logger: createLogger({ logLevel: 'silent' }, 'test'),
      now: () => new Date(clock),
      historyMs: 30 * DAY,
    });
    const first = Math.floor((Date.now() - 3 * 3_600_000) / 3_600_000) * 3_600_000;
    for (let i = 0; i < 4; i += 1) {
      clock = first + i * HALF_HOUR;
      times.push(clock);
      if (i > 0) stack.sim.advanceClock(HALF_HOUR);
      await refreshList(context, 'trending');
      await refreshList(context, 'trending-cas');
      await refreshNews(context);
    }
    await seedUser(stack, 'quant@example.com', 'correct-horse');
    token = await tokenFor(stack, 'quant@example.com', 'correct-horse');
  });
  after(async () => {
    await worker?.quit();
    await stack?.close();
  });

  const from = () => new Date(times[0]!).toISOString();

  it('when exported as NDJSON, then every state comes oldest first, each list state byte-equal to what ?at= answers', async () => {
    const res = await get(`/api/export?from=${from()}&to=${new Date(times.at(-1)!).toISOString()}`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/x-ndjson; charset=utf-8');
    const text = res.body.toString('utf8');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    // Five kinds per refresh (news' first event is its empty one: no previous window).
    expect(lines).to.have.length(times.length * EXPORT_KINDS.length);
    const at = lines.map((line) => Date.parse(line.cachedAt));
    expect(at).to.deep.equal([...at].sort((a, b) => a - b));
    expect([...new Set(lines.map((line) => line.cachedAt))]).to.deep.equal(times.map((t) => new Date(t).toISOString()));
    for (const line of lines) expect(line.state.cachedAt, line.kind).to.equal(line.cachedAt);
    for (const line of lines.filter((l) => l.kind === 'trending' || l.kind === 'trending-cas')) {
      const served = await http(`${stack.apiUrl}/api/market/${line.kind}?at=${line.cachedAt}`);
      const raw = text.split('\n').find((l) => l.includes(`"id":"${line.id}"`) && l.startsWith(`{"kind":"${line.kind}"`));
      expect(raw, `${line.kind} at ${line.cachedAt}`).to.equal(
        `{"kind":"${line.kind}","id":"${line.id}","cachedAt":"${line.cachedAt}","state":${served.body.toString('utf8')}}`,
      );
    }
  });

  it('when some kinds are asked as CSV, then only they come, one row each with the state as a quoted JSON field', async () => {
    const res = await get(`/api/export?kinds=sentiment,trending&from=${from()}&format=csv`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    const [header, ...rows] = res.body.toString('utf8').trimEnd().split('\n');
    expect(header).to.equal('kind,id,cachedAt,state');
    expect(rows).to.have.length(times.length * 2);
    for (const row of rows) {
      const [kind, , cachedAt] = row.split(',');
      expect(['trending', 'sentiment']).to.include(kind);
      const state = JSON.parse(row.slice(row.indexOf('"') + 1, -1).replaceAll('""', '"')) as { cachedAt: string };
      expect(state.cachedAt).to.equal(cachedAt);
    }
  });

  it('when read a page at a time, then the states are the same as read whole', async () => {
    const read = async (pageSize: number) => {
      const states = [];
      for await (const state of exportStates(stack.redis, EXPORT_KINDS, times[0]!, times.at(-1)!, pageSize)) states.push(state);
      return states;
    };
    expect(await read(1)).to.deep.equal(await read(1000));
  });

  it('when a page is read, then it is what XRANGE answers, and the command that read it resolves without the reply', async () => {
    const key = historyKeys.events('news');
    const ranges = [
      ['-', 2],
      ['-', 1000],
      [`(${times.at(-1)!}-0`, 5],
    ] as const;
    const sent: Promise<unknown>[] = [];
    const sendCommand = stack.redis.sendCommand.bind(stack.redis);
    // The command's own promise is what an old-space closure of ioredis' Command keeps until a major GC.
    stack.redis.sendCommand = (command, ...rest) => (sent.push(command.promise), sendCommand(command, ...rest));
    const pages = [];
    try {
      for (const [start, count] of ranges) pages.push(await xrangePage(stack.redis, key, start, '+', count));
    } finally {
      stack.redis.sendCommand = sendCommand;
    }
    expect(await Promise.all(sent)).to.deep.equal([[], [], []]);
    for (const [index, [start, count]] of ranges.entries()) {
      expect(pages[index]).to.deep.equal(await stack.redis.xrange(key, start, '+', 'COUNT', count));
    }
    expect(pages[1]?.length).to.be.greaterThan(0);
  });

  it('when the credential is missing or a parameter is wrong, then 401 or 400 names it', async () => {
    expect((await http(`${stack.apiUrl}/api/export?from=${from()}`)).status).to.equal(401);
    const cases: [string, string][] = [
      ['from=yesterday', 'Invalid query parameter: from'],
      ['to=2026-13-01', 'Invalid query parameter: to'],
      [
        `from=${from()}&kinds=trending,stats`,
        'Invalid query parameter: kinds: comma-separated, from trending, trending-cas, news, sentiment, mindshare',
      ],
      [`from=${from()}&format=parquet`, 'Invalid query parameter: format: one of ndjson, csv'],
      [`from=${from()}&to=2020-01-01`, 'Invalid range: from is after to'],
    ];
    for (const [query, error] of cases) {
      const res = await get(`/api/export?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.json, query).to.deep.equal({ error });
    }
  });

  it('when a user has spent the hour’s budget, then 429 says so with Retry-After, and another user is not affected', async () => {
    await seedUser(stack, 'spender@example.com', 'correct-horse');
    const spender = await tokenFor(stack, 'spender@example.com', 'correct-horse');
    const month = new Date(Date.now() - 30 * DAY).toISOString();
    // 5 kinds x 30 days = 150 kind-days: two fit in 400, the third does not.
    expect((await get(`/api/export?from=${month}`, spender)).status).to.equal(200);
    expect((await get(`/api/export?from=${month}`, spender)).status).to.equal(200);
    const refused = await get(`/api/export?from=${month}`, spender);
    expect(refused.status).to.equal(429);
    expect(refused.json).to.deep.equal({ error: 'Export budget spent: 400 kind-days per hour, this range costs 150' });
    expect(Number(refused.headers.get('retry-after'))).to.be.within(3500, 3600);
    expect((await get(`/api/export?from=${from()}&kinds=trending`, spender)).status).to.equal(200);
    expect((await get(`/api/export?from=${month}`)).status).to.equal(200);
  });
});
