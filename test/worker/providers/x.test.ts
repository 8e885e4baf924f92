import { expect } from 'chai';
import { providerKeys } from '../../../shared/provider-keys.js';
import { X_TOKEN } from '../../support/provider-fixtures/x.js';
import { rejection, startHarness, type Harness } from './helpers.js';

const WINDOW_MS = 72 * 3_600_000;

describe('X adapter against the documented wire shapes', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  const since = () => new Date(Date.now() - WINDOW_MS);

  it('when the tracked posts are read, then usernames are resolved once, every page is read, and the posts come newest first as posted', async () => {
    const { result: posts, spend } = await h.spend(() => h.adapters.x.posts(h.config.trackedAccounts, since(), 10_000));
    expect(posts.map((post) => post.id)).to.deep.equal(['1900000000000000105', '1900000000000000102', '1900000000000000104', '1900000000000000103', '1900000000000000101']);
    const [newest, , long] = posts;
    expect(newest).to.deep.include({ author: 'CryptoAlice', authorFollowers: 52000, tokens: ['SOL'], engagementScore: 100 + 5 + 3 + 2 * (10 + 2) });
    expect(long!.text).to.match(/I also hold \$SOL\.$/);
    expect(long!.tokens).to.deep.equal(['PEPE', 'SOL']);
    // repost_count (OpenAPI 2.167) counts like retweet_count.
    expect(long!.engagementScore).to.equal(40 + 2 + 1 + 2 * 4);
    expect(posts[4]).to.deep.include({ author: 'bob_trades', tokens: [], engagementScore: 0 });

    const lookups = h.fixtures.x.requestsTo('/2/users/by');
    expect(lookups).to.have.length(1);
    expect(lookups[0]!.query).to.include({ usernames: 'cryptoalice,Bob_Trades,ghost_acct', 'user.fields': 'public_metrics' });
    const timelines = h.fixtures.x.requestsTo('/2/users/1001/tweets');
    expect(timelines.map((request) => request.query.pagination_token)).to.deep.equal([undefined, 'page-2']);
    expect(timelines[0]!.query).to.include({ max_results: '100', exclude: 'retweets', expansions: 'author_id' });
    expect(timelines[0]!.query.start_time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    for (const request of h.fixtures.x.requests) expect(request.headers.authorization).to.equal(`Bearer ${X_TOKEN}`);
    expect(spend.x).to.deep.equal({ calls: 4, credits: 0, posts: 5 });
    expect(h.logs.some((line) => /not found or are suspended/.test(line.msg))).to.equal(true);
  });

  it('when read again, then no lookup and only what is new (since_id); an empty page costs nothing and the held posts stay', async () => {
    await h.adapters.x.posts(h.config.trackedAccounts, since(), 10_000);
    h.fixtures.reset();
    h.fixtures.x.addPost({ id: '1900000000000000106', author_id: '1002', created_at: new Date().toISOString(), text: 'New: $AXL', entities: { cashtags: [{ start: 5, end: 9, tag: 'AXL' }] } });
    const { result: posts, spend } = await h.spend(() => h.adapters.x.posts(h.config.trackedAccounts, since(), 10_000));
    expect(h.fixtures.x.requestsTo('/2/users/by')).to.have.length(0);
    expect(h.fixtures.x.requestsTo('/2/users/1001/tweets')[0]!.query).to.include({ since_id: '1900000000000000105' });
    expect(h.fixtures.x.requestsTo('/2/users/1002/tweets')[0]!.query).to.include({ since_id: '1900000000000000102' });
    expect(posts.map((post) => post.id)[0]).to.equal('1900000000000000106');
    expect(posts).to.have.length(6);
    // No public_metrics at all: engagement 0.
    expect(posts[0]).to.deep.include({ tokens: ['AXL'], engagementScore: 0, authorFollowers: 8000 });
    expect(spend.x).to.deep.equal({ calls: 2, credits: 0, posts: 1 });
  });

  it('when the worker restarts, then the ids, since_ids and posts are still known (Redis)', async () => {
    await h.adapters.x.posts(h.config.trackedAccounts, since(), 10_000);
    h.fixtures.reset();
    const restarted = h.restart();
    const stats = await restarted.account('CRYPTOALICE');
    expect(stats?.username).to.equal('CryptoAlice');
    expect(h.fixtures.x.requestsTo('/2/users/by')).to.have.length(0);
    expect(await h.redis.hlen(providerKeys.xSinceIds())).to.equal(2);
  });

  it('when rate limited (429 with x-rate-limit-reset), then one wait and one more call', async () => {
    h.fixtures.x.script('/2/users/by', {
      status: 429,
      headers: { 'x-rate-limit-reset': String(Math.ceil(Date.now() / 1000) + 1) },
      body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
    });
    const users = await h.adapters.x.users(['CryptoAlice']);
    expect(users.get('cryptoalice')).to.deep.equal({ id: '1001', username: 'CryptoAlice' });
    expect(h.fixtures.x.requestsTo('/2/users/by')).to.have.length(2);
  });

  it('when the monthly usage cap is hit (429 usage-capped), then X is blocked until the next month, not retried', async () => {
    h.fixtures.x.script('/2/users/by', {
      status: 429,
      headers: { 'x-rate-limit-reset': String(Math.ceil(Date.now() / 1000)) },
      body: { title: 'UsageCapExceeded', detail: 'Usage cap exceeded: Monthly product cap', type: 'https://api.twitter.com/2/problems/usage-capped', period: 'Monthly', scope: 'Product' },
    });
    const error = await rejection(h.adapters.x.users(['CryptoAlice']));
    expect(error.retryable).to.equal(false);
    await rejection(h.adapters.x.users(['CryptoAlice']));
    expect(h.fixtures.x.requests).to.have.length(1);
    expect(JSON.parse((await h.redis.hget(providerKeys.blocked(), 'x'))!)).to.include({ reason: 'usage cap reached', status: 429 });
  });

  it('when X has no credits (402 CreditsDepleted), then X is blocked for an hour', async () => {
    h.fixtures.x.script('/2/users/by', {
      status: 402,
      body: { account_id: 1, title: 'CreditsDepleted', detail: 'Your enrolled account [1] does not have any credits to fulfill this request.', type: 'https://api.twitter.com/2/problems/credits' },
    });
    await rejection(h.adapters.x.users(['CryptoAlice']));
    const block = JSON.parse((await h.redis.hget(providerKeys.blocked(), 'x'))!) as { until: string };
    expect(Date.parse(block.until) - h.clock.now.getTime()).to.equal(3_600_000);
  });

  it('when the bearer token is refused (401), then the error names X_BEARER_TOKEN and not the token', async () => {
    h.fixtures.x.script('/2/users/by', { status: 401, body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' } });
    const error = await rejection(h.adapters.x.users(['CryptoAlice']));
    expect(error.message).to.match(/X_BEARER_TOKEN/);
    expect(error.message + JSON.stringify(h.logs)).to.not.include(X_TOKEN);
  });
});
