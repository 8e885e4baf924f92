/**
 * Issue 12: GET /api/market/stream through real HTTP, the real hub and real Redis; events are
 * the ones the worker's job functions write with each refresh.
 */
import { expect } from 'chai';
import type { NewsItem, SentimentRecord } from '../../../shared/market-types.js';
import { http } from '../../support/http.js';
import { pinnedJobs, type PinnedJobs } from '../../support/pinned-jobs.js';
import { SseClient } from '../../support/sse.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

const HALF_HOUR = 30 * 60_000;

describe('GET /api/market/stream: server-sent events (docs/decisions.md#d11)', function () {
  this.timeout(60_000);
  let stack: Stack;
  let jobs: PinnedJobs;
  let clock = Date.now() - 10 * HALF_HOUR;
  const clients: SseClient[] = [];
  const connect = async (query = '', headers: Record<string, string> = {}) => {
    const client = await SseClient.connect(`${stack.apiUrl}/api/market/stream${query}`, headers);
    clients.push(client);
    // The hub registers a client before it writes the retry hint: from then on no event is missed.
    if (client.status === 200) await eventually(() => client.retry, 5000, 'the retry hint');
    return client;
  };
  const refresh = async (job: 'trending' | 'trending-cas' | 'news') => {
    clock += 60_000;
    stack.sim.advanceClock(HALF_HOUR);
    await jobs.run(job, clock);
    return clock;
  };

  before(async () => {
    // Behind a proxy (TRUST_PROXY), so that tests can speak for several client addresses.
    stack = await startStack({ workers: 0, env: { STREAM_MAX_CLIENTS: '6', STREAM_MAX_CLIENTS_PER_ADDRESS: '4', TRUST_PROXY: 'true' } });
    jobs = pinnedJobs(stack.config, stack.sim.url);
    for (const job of ['trending', 'trending-cas', 'news'] as const) await refresh(job);
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  after(async () => {
    await jobs?.close();
    await stack?.close();
  });

  it('when connected, then it is text/event-stream with a retry hint, and each refresh arrives as one event whose id is its cachedAt', async () => {
    const client = await connect();
    expect(client.status).to.equal(200);
    expect(client.headers['content-type']).to.equal('text/event-stream; charset=utf-8');
    expect(client.headers['access-control-allow-origin']).to.equal('*');
    expect(client.retry).to.be.a('number');
    // The event under the refresh's id: an announcement of before()'s refreshes may reach the API
    // after this client connected, and be the first it sees (the Cluster leg saw it under load).
    const eventOf = (kind: string, id: number) =>
      eventually(() => client.events.find((e) => e.event === kind && e.id === String(id)), 10_000, `the ${kind} event of ${id}`);
    const at = await refresh('trending');
    const event = await eventOf('trending', at);
    const live = await http(`${stack.apiUrl}/api/market/trending`);
    expect(JSON.parse(event.data)).to.deep.equal(live.json);
    expect((JSON.parse(event.data) as { cachedAt: string }).cachedAt).to.equal(new Date(at).toISOString());
    await eventOf('trending-cas', await refresh('trending-cas'));
    expect(
      client.events.filter((e) => e.id === String(at) && e.event === 'trending'),
      'one event per refresh',
    ).to.have.length(1);
  });

  it('when news refreshes, then `news` carries only the posts new since the previous refresh and `sentiment` only the changed records', async () => {
    const before = (await http(`${stack.apiUrl}/api/market/news?limit=50`)).json as { data: NewsItem[] };
    const previousSentiment = new Map<string, SentimentRecord>();
    const tokens = ((await http(`${stack.apiUrl}/api/market/trending`)).json as { data: { token: string }[] }).data.map((t) => t.token);
    for (const token of tokens) {
      const res = await http(`${stack.apiUrl}/api/market/sentiment/${token}`);
      if (res.status === 200) previousSentiment.set(token, res.json as SentimentRecord);
    }
    const client = await connect('?topics=news,sentiment');
    const at = await refresh('news');
    const [news] = await client.waitFor(1, 'news');
    const [sentiment] = await client.waitFor(1, 'sentiment');
    expect(news!.id).to.equal(String(at));
    expect(sentiment!.id).to.equal(String(at));
    const fresh = (JSON.parse(news!.data) as { data: NewsItem[] }).data;
    expect(fresh.length).to.be.greaterThan(0);
    const oldIds = new Set(before.data.map((post) => post.id));
    for (const post of fresh) expect(oldIds.has(post.id), post.id).to.equal(false);
    const changed = (JSON.parse(sentiment!.data) as { data: SentimentRecord[] }).data;
    expect(changed.length).to.be.greaterThan(0);
    for (const record of changed) {
      const old = previousSentiment.get(record.token);
      if (old) expect({ ...record, cachedAt: old.cachedAt }, record.token).not.to.deep.equal(old);
    }
    // Topics not asked for stay away: events arrive in order, so once the next news refresh's
    // events are in, a trending or trending-cas event sent meanwhile would be too.
    await refresh('trending');
    await refresh('trending-cas');
    const next = await refresh('news');
    await client.waitFor(4);
    expect(client.events.map((e) => [e.event, e.id])).to.deep.equal([
      ['news', String(at)],
      ['sentiment', String(at)],
      ['news', String(next)],
      ['sentiment', String(next)],
    ]);
  });

  it('when topics names an unknown kind, or repeats kinds past the declared length, then 400 {error}', async () => {
    // The document bounds topics at every kind named once (under 300 characters): 100 x news is 499.
    for (const query of ['?topics=prices', '?topics=', '?topics=news&topics=trending', `?topics=${Array(100).fill('news').join(',')}`]) {
      const client = await connect(query);
      expect(client.status, query).to.equal(400);
      expect(JSON.parse(client.body)).to.deep.equal({ error: 'Invalid query parameter: topics' });
    }
  });

  it('when a client resumes with Last-Event-ID, then it gets every later event once, in order, then the live ones', async () => {
    const first = await connect();
    const resumeFrom = await refresh('trending');
    const ids = [await refresh('trending-cas'), await refresh('news'), await refresh('trending')];
    // A news refresh writes news, sentiment, mindshare and stories under one id.
    await first.waitFor(7);
    const resumed = await connect('', { 'Last-Event-ID': String(resumeFrom) });
    await resumed.waitFor(6);
    expect(resumed.events.map((e) => e.id)).to.deep.equal([ids[0], ids[1], ids[1], ids[1], ids[1], ids[2]].map(String));
    expect(resumed.events.map((e) => e.event)).to.deep.equal(['trending-cas', 'news', 'sentiment', 'mindshare', 'stories', 'trending']);
    const expected = first.events.filter((e) => Number(e.id) > resumeFrom).map((e) => e.data);
    expect(resumed.events.map((e) => e.data).sort()).to.deep.equal(expected.sort());
    const live = await refresh('trending');
    // A later event as the marker: anything sent twice before it has arrived by the time it does.
    const marker = await refresh('trending-cas');
    await resumed.waitFor(8);
    // Each topic's events come in order; two topics' live events may cross (on a Redis Cluster
    // their notifications reach the process from different nodes), so the pair is compared as a set.
    expect(
      resumed.events
        .slice(6)
        .map((e) => [e.event, e.id])
        .sort(),
    ).to.deep.equal([
      ['trending', String(live)],
      ['trending-cas', String(marker)],
    ]);
  });

  it('when STREAM_MAX_CLIENTS are connected, then one more gets 503 {error}', async () => {
    const open = await Promise.all(Array.from({ length: 6 }, (_, i) => connect('', { 'X-Forwarded-For': `198.51.100.${i + 1}` })));
    for (const client of open) expect(client.status).to.equal(200);
    const refused = await connect('', { 'X-Forwarded-For': '198.51.100.99' });
    expect(refused.status).to.equal(503);
    expect(JSON.parse(refused.body)).to.deep.equal({ error: 'Too many stream clients' });
    expect(refused.headers['retry-after']).to.match(/^\d+$/);
    open[0]!.close();
    // The server sees the close a moment later; until then one more is still refused.
    const admitted = await eventually(
      async () => {
        const next = await connect();
        return next.status === 200 ? next : undefined;
      },
      5000,
      'a free place',
    );
    expect(admitted.status).to.equal(200);
  });

  it('when one address holds STREAM_MAX_CLIENTS_PER_ADDRESS streams, then its next one gets 503 {error} and other addresses are still served', async () => {
    const mine = { 'X-Forwarded-For': '203.0.113.7' };
    const open = await Promise.all(Array.from({ length: 4 }, () => connect('', mine)));
    for (const client of open) expect(client.status).to.equal(200);
    const refused = await connect('', mine);
    expect(refused.status).to.equal(503);
    expect(JSON.parse(refused.body)).to.deep.equal({ error: 'Too many stream clients from this address' });
    expect(refused.headers['retry-after']).to.match(/^\d+$/);
    expect((await connect('', { 'X-Forwarded-For': '203.0.113.8' })).status).to.equal(200);
    open[0]!.close();
    const again = await eventually(
      async () => {
        const next = await connect('', mine);
        return next.status === 200 ? next : undefined;
      },
      5000,
      'a free place for the address',
    );
    expect(again.status).to.equal(200);
  });

  it('when streams come from different addresses of one IPv6 /64, then they share STREAM_MAX_CLIENTS_PER_ADDRESS, and another /64 has its own', async () => {
    // The previous tests' streams are gone first: the process-wide cap (6) is not what refuses here.
    await eventually(() => (stack.deps.stream.size === 0 ? true : undefined), 5000, 'the earlier streams closed');
    const open = await Promise.all(
      Array.from({ length: 4 }, (_, i) => connect('', { 'X-Forwarded-For': `2001:db8:5:1:${i + 1}::${(i * 7 + 3).toString(16)}` })),
    );
    for (const client of open) expect(client.status).to.equal(200);
    const refused = await connect('', { 'X-Forwarded-For': '2001:db8:5:1:ffff::9' });
    expect(refused.status).to.equal(503);
    expect(JSON.parse(refused.body)).to.deep.equal({ error: 'Too many stream clients from this address' });
    expect((await connect('', { 'X-Forwarded-For': '2001:db8:5:2::1' })).status).to.equal(200);
  });

  it('when the API shuts down, then every stream ends at once and the server drains in well under its 20 s deadline', async () => {
    const open = await Promise.all(Array.from({ length: 3 }, () => connect()));
    const started = Date.now();
    const closing = stack.close();
    await Promise.all(open.map((client) => client.ended));
    const endedAfter = Date.now() - started;
    await closing;
    expect(endedAfter).to.be.below(500);
    expect(Date.now() - started).to.be.below(3000);
  });
});
