/**
 * Issue 12: history written by the worker's jobs with each refresh, read back through HTTP.
 * The refreshes run the real job functions at pinned times (30 minutes apart, the simulator's
 * clock moving with them), so the series have known points.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { createIndexClient } from '../../../apps/worker/src/providers/index-client.js';
import { createJobContext } from '../../../apps/worker/src/jobs/create-job-context.js';
import type { JobContext } from '../../../apps/worker/src/jobs/job-context.js';
import { refreshNews } from '../../../apps/worker/src/jobs/refresh-news.js';
import { refreshList } from '../../../apps/worker/src/jobs/refresh-list.js';
import { writeRefresh } from '../../../shared/history/history-store.js';
import { trendingEntries } from '../../../shared/history/refresh-entries.js';
import { historyKeys, snapshotKeys } from '../../../shared/snapshot-keys.js';
import { createLogger } from '../../../shared/logger.js';
import type { SentimentRecord, TrendingToken } from '../../../shared/market-types.js';
import { createRedis } from '../../../shared/redis.js';
import { ownKeys } from '../../support/redis-keys.js';
import { http } from '../../support/http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

const HALF_HOUR = 30 * 60_000;
const DAY = 86_400_000;

interface SentimentHistory {
  token: string;
  interval: string;
  points: { at: string; score: number; label: string; mentions: number; positive: number; neutral: number; negative: number }[];
  cachedAt: string;
}
interface TokenHistory {
  token: string;
  interval: string;
  points: { at: string; rank: number | null; mentions: number | null; smartMoneyMentions: number | null; priceChange24h: number | null }[];
  cachedAt: string;
}

describe('history: series and past snapshots written with each refresh (docs/decisions.md#d11)', function () {
  this.timeout(60_000);
  let stack: Stack;
  let worker: Redis;
  let context: JobContext;
  let clock = 0;
  /** Refresh times, oldest first: six refreshes, 30 minutes apart, the first on an hour boundary. */
  const times: number[] = [];
  /** The token left out of the trending list at the fourth refresh. */
  let dropped = '';
  const get = (path: string, init?: RequestInit) => http(`${stack.apiUrl}${path}`, init);

  before(async () => {
    stack = await startStack({ workers: 0 });
    worker = createRedis(stack.config, 'worker', 'test-history');
    context = createJobContext({
      redis: worker,
      provider: createIndexClient({ baseUrl: stack.sim.url, apiKey: undefined }),
      logger: createLogger({ logLevel: 'silent' }, 'test'),
      now: () => new Date(clock),
      historyMs: 30 * DAY,
    });
    const first = Math.floor((Date.now() - 4 * 3_600_000) / 3_600_000) * 3_600_000;
    for (let i = 0; i < 6; i += 1) {
      clock = first + i * HALF_HOUR;
      times.push(clock);
      if (i > 0) stack.sim.advanceClock(HALF_HOUR);
      if (i === 3) {
        const data = await context.provider.trendingTokens();
        dropped = data[0]!.token;
        const kept: TrendingToken[] = data.slice(1);
        const cachedAt = new Date(clock).toISOString();
        const body = JSON.stringify({ data: kept, cachedAt });
        await writeRefresh(
          worker,
          { atMs: clock, snapshots: [{ name: 'trending', body, version: cachedAt }], entries: trendingEntries(body, kept) },
          30 * DAY,
        );
      } else {
        await refreshList(context, 'trending');
      }
      await refreshList(context, 'trending-cas');
      await refreshNews(context);
    }
  });
  after(async () => {
    await worker?.quit();
    await stack?.close();
  });

  it('when the worker refreshed six times, then the sentiment history has a point per refresh, the last equal to the live record', async () => {
    // The API takes the last refresh in once the watch reports it (an announcement, or its next check).
    const last = new Date(times.at(-1)!).toISOString();
    const live = await eventually(
      async () => {
        const record = (await get('/api/market/sentiment/SOL')).json as SentimentRecord;
        return record.cachedAt === last ? record : undefined;
      },
      5000,
      'the live record of the last refresh',
    );
    const res = await get('/api/market/sentiment/$sol/history?interval=30m');
    expect(res.status).to.equal(200);
    const body = res.json as SentimentHistory;
    expect(body.token).to.equal('SOL');
    expect(body.interval).to.equal('30m');
    expect(body.cachedAt).to.equal(new Date(times.at(-1)!).toISOString());
    expect(body.points.map((p) => p.at)).to.deep.equal(times.map((t) => new Date(t).toISOString()));
    const { score, label, mentions, positive, neutral, negative } = live;
    expect(body.points.at(-1)).to.deep.equal({ at: live.cachedAt, score, label, mentions, positive, neutral, negative });
    expect(res.headers.get('etag')).to.match(/^"/);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(res.headers.get('cache-control')).to.match(/^public, max-age=\d+$/);
    const again = await get('/api/market/sentiment/SOL/history?interval=30m', { headers: { 'If-None-Match': res.headers.get('etag')! } });
    expect(again.status).to.equal(304);
  });

  it('when asked for 1h, then refreshes are bucketed on UTC hours: counts summed, score weighted by mentions', async () => {
    const fine = ((await get('/api/market/sentiment/SOL/history')).json as SentimentHistory).points;
    const hourly = ((await get('/api/market/sentiment/SOL/history?interval=1h')).json as SentimentHistory).points;
    expect(hourly.map((p) => p.at)).to.deep.equal([0, 2, 4].map((i) => new Date(times[i]!).toISOString()));
    for (let h = 0; h < 3; h += 1) {
      const [a, b] = [fine[2 * h]!, fine[2 * h + 1]!];
      expect(hourly[h]!.mentions).to.equal(a.mentions + b.mentions);
      expect(hourly[h]!.negative).to.equal(a.negative + b.negative);
      expect(hourly[h]!.score).to.be.closeTo((a.score * a.mentions + b.score * b.mentions) / (a.mentions + b.mentions), 1e-4);
    }
    const daily = ((await get('/api/market/sentiment/SOL/history?interval=1d')).json as SentimentHistory).points;
    expect(daily.reduce((sum, p) => sum + p.mentions, 0)).to.equal(fine.reduce((sum, p) => sum + p.mentions, 0));
  });

  it('when from and to are given, then only the refreshes inside them are returned', async () => {
    const from = new Date(times[1]!).toISOString();
    const to = new Date(times[3]!).toISOString();
    const body = (await get(`/api/market/sentiment/SOL/history?from=${from}&to=${to}`)).json as SentimentHistory;
    expect(body.points.map((p) => p.at)).to.deep.equal([from, new Date(times[2]!).toISOString(), to]);
  });

  it('when a value is bad, then 400 {error}; when the token was never seen, then 404', async () => {
    for (const [query, error] of [
      ['from=yesterday', 'Invalid query parameter: from'],
      ['to=2026-11-25T10:00', 'Invalid query parameter: to'],
      ['interval=2h', 'Invalid query parameter: interval'],
      ['from=2026-11-25T10:00:00Z&to=2026-11-24T10:00:00Z', 'Invalid range: from is after to'],
    ]) {
      const res = await get(`/api/market/sentiment/SOL/history?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.json).to.deep.equal({ error: error });
    }
    expect((await get('/api/market/sentiment/so-l/history')).json).to.deep.equal({ error: 'Invalid token' });
    const missing = await get('/api/market/sentiment/ZZZZZZZZ/history');
    expect(missing.status).to.equal(404);
    expect(missing.json).to.deep.equal({ error: 'Token not found in index' });
    expect((await get('/api/market/tokens/ZZZZZZZZ/history')).status).to.equal(404);
  });

  it('when a token left the trending list at one refresh, then its figures show rank null there', async () => {
    const res = await get(`/api/market/tokens/${dropped.toLowerCase()}/history`);
    expect(res.status).to.equal(200);
    const body = res.json as TokenHistory;
    expect(body.points).to.have.length(6);
    expect(body.points[3]).to.deep.equal({
      at: new Date(times[3]!).toISOString(),
      rank: null,
      mentions: null,
      smartMoneyMentions: null,
      priceChange24h: null,
    });
    for (const i of [0, 1, 2, 4, 5]) expect(body.points[i]!.rank, `refresh ${i}`).to.be.a('number');
    const hourly = ((await get(`/api/market/tokens/${dropped}/history?interval=1h`)).json as TokenHistory).points;
    expect(hourly[1]!.rank).to.equal(body.points[2]!.rank);
    expect(hourly[1]!.mentions).to.equal(body.points[2]!.mentions);
  });

  it('when trending?at= names a moment, then the snapshot current then answers, with its own cachedAt', async () => {
    for (const name of ['trending', 'trending-cas']) {
      const at = new Date(times[2]! + 60_000).toISOString();
      const res = await get(`/api/market/${name}?at=${at}`);
      expect(res.status, name).to.equal(200);
      expect((res.json as { cachedAt: string }).cachedAt).to.equal(new Date(times[2]!).toISOString());
      expect(res.headers.get('etag')).to.match(/^"/);
      const current = (await get(`/api/market/${name}`)).json as { cachedAt: string };
      expect(current.cachedAt).to.equal(new Date(times[5]!).toISOString());
      const before = await get(`/api/market/${name}?at=${new Date(times[0]! - 1).toISOString()}`);
      expect(before.status).to.equal(404);
      expect(before.json).to.deep.equal({ error: 'No snapshot at that time' });
      expect((await get(`/api/market/${name}?at=soon`)).json).to.deep.equal({ error: 'Invalid query parameter: at' });
    }
    const third = (await get(`/api/market/trending?at=${new Date(times[3]!).toISOString()}`)).json as { data: TrendingToken[] };
    expect(third.data.map((t) => t.token)).not.to.include(dropped);
  });

  it('when a refresh is not newer than the last one stored, then it writes nothing at all (snapshot and history agree)', async () => {
    const version = await stack.redis.get(snapshotKeys.version('trending'));
    const length = await stack.redis.xlen(historyKeys.events('trending'));
    clock = times[4]!;
    await refreshList(context, 'trending');
    expect(await stack.redis.get(snapshotKeys.version('trending'))).to.equal(version);
    expect(await stack.redis.xlen(historyKeys.events('trending'))).to.equal(length);
    clock = times[5]! + HALF_HOUR;
    times.push(clock);
  });

  it('every history key expires with the retention window, so a token that leaves the index leaves nothing behind', async () => {
    const historyKeysFound = await ownKeys(stack.redis, '*:history:*');
    expect(historyKeysFound.length).to.be.greaterThan(50);
    for (const key of historyKeysFound.slice(0, 50)) {
      const ttl = await stack.redis.pttl(key);
      expect(ttl, key).to.be.within(29 * DAY, 30 * DAY);
    }
  });

  it('when a range at 30m holds more than 1,000 refreshes, then the newest 1,000 are answered (and only they are read: issue 38 item 6)', async () => {
    // 1,100 earlier refreshes of the token's figures, as copies of its first, 30 minutes apart before it.
    const token = dropped;
    for (const key of [historyKeys.token(token), historyKeys.trendingTimes()]) {
      const [[, fields]] = (await worker.xrange(key, '-', '+', 'COUNT', 1)) as [[string, string[]]];
      const batch = worker.pipeline();
      for (let back = 1100; back >= 1; back -= 1) batch.xadd(key, `${times[0]! - back * HALF_HOUR}-0`, ...fields);
      await batch.exec();
    }
    const from = new Date(times[0]! - 1200 * HALF_HOUR).toISOString();
    const newest = (await worker.xrevrange(historyKeys.trendingTimes(), '+', '-', 'COUNT', 1000)) as [string, string[]][];
    const body = (await get(`/api/market/tokens/${token}/history?interval=30m&from=${from}`)).json as TokenHistory;
    expect(body.points.map((p) => p.at)).to.deep.equal(newest.reverse().map(([id]) => new Date(Number(id.split('-')[0])).toISOString()));
    expect(body.points[0]!.rank).to.be.a('number');
  });
});
