/**
 * GET /api/market/stories and /api/market/stories/:id (docs/decisions.md#d23) through the whole
 * stack: the simulator plants events (apps/index-sim/src/planted-stories.ts) and the first news
 * refresh, replaying the posts it holds, finds them; each bad value is a 400 naming it.
 */
import { expect } from 'chai';
import { http } from '../../support/http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

interface Story {
  id: string;
  title: string;
  tokens: string[];
  authors: number;
  postIds: string[];
  status: string;
  score: number;
}

describe('GET /api/market/stories and /api/market/stories/:id', function () {
  this.timeout(90_000);
  let stack: Stack;

  before(async () => {
    stack = await startStack();
    await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 60_000, 'ready');
  });
  after(async () => {
    await stack?.close();
  });

  it('the planted events are stories of several authors, ranked by score, each opening its posts newest first', async () => {
    const res = await http(`${stack.apiUrl}/api/market/stories?window=7d`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('etag')).to.be.a('string');
    const body = res.json as { window: string; data: Story[]; cachedAt: string };
    expect(body.window).to.equal('7d');
    expect(body.data.length).to.be.greaterThan(0);
    const scores = body.data.map((story) => story.score);
    expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
    for (const story of body.data) expect(story.authors).to.be.at.least(3);
    const top = body.data[0] as Story;
    const again = await http(`${stack.apiUrl}/api/market/stories?window=7d`, {
      headers: { 'If-None-Match': res.headers.get('etag') as string },
    });
    expect(again.status).to.equal(304);

    const token = top.tokens[0] as string;
    const byToken = (await http(`${stack.apiUrl}/api/market/stories?window=7d&token=${token.toLowerCase()}`)).json as { data: Story[] };
    expect(byToken.data.length).to.be.greaterThan(0);
    expect(byToken.data.every((story) => story.tokens.includes(token))).to.equal(true);

    const detail = await http(`${stack.apiUrl}/api/market/stories/${top.id}`);
    expect(detail.status).to.equal(200);
    const story = detail.json as {
      data: Story & { scores: { at: string; score: number }[] };
      posts: { id: string; publishedAt: string }[];
    };
    expect(story.data.id).to.equal(top.id);
    expect(story.data.scores.length).to.be.greaterThan(0);
    expect(story.posts.map((post) => post.id).every((id) => top.postIds.includes(id))).to.equal(true);
    const times = story.posts.map((post) => post.publishedAt);
    expect(times).to.deep.equal([...times].sort().reverse());
  });

  it('a bad window is a 400 naming the windows; an unknown id a 404; `at` answers the past state', async () => {
    const bad = await http(`${stack.apiUrl}/api/market/stories?window=2h`);
    expect(bad.status).to.equal(400);
    expect(bad.json).to.deep.equal({ error: 'Invalid query parameter: window (one of 1h, 24h, 7d)' });
    const missing = await http(`${stack.apiUrl}/api/market/stories/nope`);
    expect(missing.status).to.equal(404);
    expect(missing.json).to.deep.equal({ error: 'Story not found' });
    const now = (await http(`${stack.apiUrl}/api/market/stories`)).json as { cachedAt: string };
    const past = await http(`${stack.apiUrl}/api/market/stories?at=${encodeURIComponent(now.cachedAt)}`);
    expect(past.status).to.equal(200);
    expect((past.json as { window: string; cachedAt: string }).cachedAt).to.equal(now.cachedAt);
    expect((await http(`${stack.apiUrl}/api/market/stories?at=2001-01-01`)).status).to.equal(404);
  });
});
