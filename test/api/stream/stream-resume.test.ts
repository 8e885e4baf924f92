/**
 * Issue 38 item 2: a `Last-Event-ID` resume replays at most STREAM_RESUME_MAX_EVENTS events of a
 * topic; a client further behind gets each topic's current state once, marked `"gap":true`, then
 * the live feed. Through real HTTP, the real hub and real Redis; events written by the worker's jobs.
 */
import { expect } from 'chai';
import type { NewsItem, SentimentRecord } from '../../../shared/market-types.js';
import { http } from '../../support/http.js';
import { pinnedJobs, type PinnedJobs } from '../../support/pinned-jobs.js';
import { SseClient } from '../../support/sse.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

const HALF_HOUR = 30 * 60_000;
const MAX = 3;

describe('GET /api/market/stream: a resume far behind gets the current state, not the retention', function () {
  this.timeout(60_000);
  let stack: Stack;
  let jobs: PinnedJobs;
  let clock = Date.now() - 20 * HALF_HOUR;
  const clients: SseClient[] = [];
  const ids: Record<'trending' | 'trending-cas' | 'news', number[]> = { trending: [], 'trending-cas': [], news: [] };
  const connect = async (query: string, lastEventId: number) => {
    const client = await SseClient.connect(`${stack.apiUrl}/api/market/stream${query}`, { 'Last-Event-ID': String(lastEventId) });
    clients.push(client);
    expect(client.status).to.equal(200);
    return client;
  };
  const refresh = async (job: 'trending' | 'trending-cas' | 'news') => {
    clock += 60_000;
    stack.sim.advanceClock(HALF_HOUR);
    await jobs.run(job, clock);
    ids[job].push(clock);
    return clock;
  };
  /** Each event's data, parsed. */
  const body = <T>(data: string) => JSON.parse(data) as T & { gap?: true };

  before(async () => {
    stack = await startStack({ workers: 0, env: { STREAM_RESUME_MAX_EVENTS: String(MAX) } });
    jobs = pinnedJobs(stack.config, stack.sim.url);
    for (let i = 0; i < 2 * MAX; i += 1) for (const job of ['trending', 'trending-cas', 'news'] as const) await refresh(job);
    // The API's copies (what GET serves, and what a far-behind resume is sent) hold the last refresh.
    const lastNews = new Date(ids.news.at(-1)!).toISOString();
    await eventually(
      async () => ((await http(`${stack.apiUrl}/api/market/news`)).json as { cachedAt: string }).cachedAt === lastNews,
      5000,
      'news',
    );
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  after(async () => {
    await jobs?.close();
    await stack?.close();
  });

  it('when a client resumes at most STREAM_RESUME_MAX_EVENTS back, then it gets exactly what it missed, unmarked, then live', async () => {
    const from = ids.trending.at(-MAX - 1)!;
    const client = await connect('?topics=trending', from);
    const replayed = await client.waitFor(MAX);
    expect(replayed.map((e) => Number(e.id))).to.deep.equal(ids.trending.slice(-MAX));
    for (const event of replayed) expect(body(event.data).gap).to.equal(undefined);
    const live = await refresh('trending');
    expect((await client.waitFor(MAX + 1)).map((e) => Number(e.id))).to.deep.equal([...ids.trending.slice(-MAX - 1, -1), live]);
  });

  it('when a client resumes further back, then each topic comes once as its current state marked "gap": true, then live events', async () => {
    const client = await connect('?topics=trending,news,sentiment', ids.trending[0]!);
    const states = await client.waitFor(3);
    expect(states.map((e) => e.event).sort()).to.deep.equal(['news', 'sentiment', 'trending']);
    const of = (topic: string) => states.find((e) => e.event === topic)!;

    const trending = await http(`${stack.apiUrl}/api/market/trending`);
    expect(of('trending').id).to.equal(String(ids.trending.at(-1)));
    expect(body(of('trending').data)).to.deep.equal({ gap: true, ...(trending.json as object) });

    // News events carry only new posts: its state is the newest page, as GET returns it.
    const news = await http(`${stack.apiUrl}/api/market/news?limit=50`);
    expect(of('news').id).to.equal(String(ids.news.at(-1)));
    expect(body(of('news').data)).to.deep.equal({ gap: true, ...(news.json as object) });
    expect(body<{ data: NewsItem[] }>(of('news').data).data).to.have.length(50);

    // Sentiment events carry only changed records: its state is every token's record.
    const sentiment = body<{ data: SentimentRecord[]; cachedAt: string }>(of('sentiment').data);
    expect(sentiment.gap).to.equal(true);
    expect(of('sentiment').id).to.equal(String(ids.news.at(-1)));
    expect(sentiment.data.length).to.be.greaterThan(0);
    for (const record of sentiment.data.slice(0, 5))
      expect((await http(`${stack.apiUrl}/api/market/sentiment/${record.token}`)).json).to.deep.equal(record);

    const live = await refresh('trending');
    const [, , , next] = await client.waitFor(4);
    expect([next!.event, Number(next!.id)]).to.deep.equal(['trending', live]);
    expect(body(next!.data).gap).to.equal(undefined);
  });

  it('when a client resumes from Last-Event-ID 1, then it gets one event per topic that has any, all marked, then live', async () => {
    const client = await connect('', 1);
    // trending, trending-cas, and the news refresh's news, sentiment, mindshare and stories.
    const states = await client.waitFor(6);
    expect(states.map((e) => e.event).sort()).to.deep.equal(['mindshare', 'news', 'sentiment', 'stories', 'trending', 'trending-cas']);
    for (const event of states) expect(body(event.data).gap, event.event).to.equal(true);
    const live = await refresh('trending-cas');
    const events = await client.waitFor(7);
    expect([events[6]!.event, Number(events[6]!.id)]).to.deep.equal(['trending-cas', live]);
  });
});
