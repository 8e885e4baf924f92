import { expect } from 'chai';
import type { SentimentRecord } from '../../shared/market-types.js';
import { http } from '../support/http.js';
import { eventually, startStack, type Stack } from '../support/stack.js';

describe('token sentiment routes (docs/decisions.md#d2)', () => {
  let stack: Stack;
  const get = (path: string, init?: RequestInit) => http(`${stack.apiUrl}${path}`, init);
  let trendingTokens: string[];

  before(async () => {
    stack = await startStack();
    await eventually(async () => ((await get('/readyz')).status === 200 ? true : undefined), 15_000, 'readiness');
    trendingTokens = ((await get('/api/market/trending')).json as { data: { token: string }[] }).data.map((t) => t.token);
  });
  after(() => stack.close());

  it('when a token is mentioned in the window, then both paths answer the same bytes with the record of docs/decisions.md#d2', async () => {
    const ours = await get('/api/market/sentiment/SOL');
    const literal = await get('/sentiment/SOL');
    expect(ours.status).to.equal(200);
    expect(literal.body.equals(ours.body)).to.equal(true);
    expect(literal.headers.get('etag')).to.equal(ours.headers.get('etag'));
    const record = ours.json as SentimentRecord;
    expect(record).to.have.all.keys(
      'token',
      'score',
      'label',
      'mentions',
      'positive',
      'neutral',
      'negative',
      'sample',
      'confidence',
      'cachedAt',
    );
    expect(record.token).to.equal('SOL');
    expect(record.score).to.be.within(-1, 1);
    expect(record.positive + record.neutral + record.negative).to.equal(record.mentions);
    const news = (await get('/api/market/news?limit=1')).json as { cachedAt: string };
    expect(record.cachedAt).to.equal(news.cachedAt);
  });

  it('matches case-insensitively and drops a leading $', async () => {
    const canonical = (await get('/api/market/sentiment/SOL')).body;
    for (const path of ['/api/market/sentiment/sol', '/api/market/sentiment/%24Sol', '/sentiment/$sOl']) {
      const res = await get(path);
      expect(res.status, path).to.equal(200);
      expect(res.body.equals(canonical), path).to.equal(true);
    }
  });

  it('labels agree with the score, and tokens differ: some bullish, some bearish', async () => {
    const records: SentimentRecord[] = [];
    for (const token of trendingTokens) {
      const res = await get(`/api/market/sentiment/${token}`);
      if (res.status === 200) records.push(res.json as SentimentRecord);
    }
    expect(records.length).to.be.at.least(30);
    for (const r of records) {
      const expected = r.score >= 0.15 ? 'bullish' : r.score <= -0.15 ? 'bearish' : 'neutral';
      expect(r.label, r.token).to.equal(expected);
    }
    const labels = new Set(records.map((r) => r.label));
    for (const r of records) {
      expect(r.sample.posts, r.token).to.equal(r.mentions);
      expect(r.sample.authors, r.token).to.be.within(1, r.sample.posts);
      expect(r.confidence, r.token).to.be.within(0, r.sample.authors / (r.sample.authors + 10) + 0.005);
    }
    // The simulator's busiest tokens are discussed by many accounts: some record is fairly sure.
    expect(Math.max(...records.map((r) => r.confidence))).to.be.greaterThan(0.3);
    expect([...labels].sort()).to.deep.equal(['bearish', 'bullish', 'neutral']);
  });

  it('when the ticker is invalid, then 400 Invalid token; when not mentioned, then 404', async () => {
    for (const bad of ['SO-L', 'A'.repeat(21), '$', '%24%24SOL']) {
      const res = await get(`/api/market/sentiment/${bad}`);
      expect(res.status, bad).to.equal(400);
      expect(res.json).to.deep.equal({ error: 'Invalid token' });
    }
    const missing = await get('/sentiment/NOTATOKEN');
    expect(missing.status).to.equal(404);
    expect(missing.json).to.deep.equal({ error: 'Token not found in index' });
  });

  it('revalidates with ETag like every market read', async () => {
    const first = await get('/api/market/sentiment/SOL');
    const second = await get('/sentiment/SOL', { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(second.status).to.equal(304);
    expect(first.headers.get('access-control-allow-origin')).to.equal('*');
  });
});
