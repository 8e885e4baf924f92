import { expect } from 'chai';
import { keys } from '../../../shared/keyspace.js';
import { providerKeys } from '../../../shared/provider-keys.js';
import { ELFA_KEY, elfaRateLimited, ETH_CA, SOL_CA } from '../../../dev/provider-fixtures/elfa.js';
import { rejection, startHarness, type Harness } from './helpers.js';

describe('Elfa adapter against the documented wire shapes', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('when trending tokens come with strings, nulls, a $, extra fields and an invalid item, then the valid ones are read, upper case', async () => {
    const { result, spend } = await h.spend(() => h.adapters.elfa.trendingTokens());
    expect(result).to.deep.equal([
      { token: 'SOL', mentions: 120 },
      { token: 'PEPE', mentions: 80 },
      { token: 'BTC', mentions: 95 },
      { token: 'AXL', mentions: 40 },
      { token: 'NEWCOIN', mentions: 12 },
    ]);
    const [request] = h.fixtures.elfa.requestsTo('/v2/aggregations/trending-tokens');
    expect(request?.headers['x-elfa-api-key']).to.equal(ELFA_KEY);
    expect(request?.query).to.deep.equal({ timeWindow: '24h', page: '1', pageSize: '50' });
    expect(spend).to.deep.equal({ elfa: { calls: 1, credits: 1, posts: 0 } });
  });

  it('when a window other than 24h is asked (TRENDING_WINDOWS), then it is sent as timeWindow on each trending request, at the same credits', async () => {
    const { spend } = await h.spend(async () => {
      await h.adapters.elfa.trendingTokens('1h');
      await h.adapters.elfa.trendingContracts('7d');
    });
    expect(h.fixtures.elfa.requestsTo('/v2/aggregations/trending-tokens').map((request) => request.query.timeWindow)).to.deep.equal(['1h']);
    const cas = [
      ...h.fixtures.elfa.requestsTo('/v2/aggregations/trending-cas/twitter'),
      ...h.fixtures.elfa.requestsTo('/v2/aggregations/trending-cas/telegram'),
    ];
    expect(cas.map((request) => request.query.timeWindow)).to.deep.equal(['7d', '7d']);
    expect(spend.elfa).to.deep.equal({ calls: 3, credits: 3, posts: 0 });
  });

  it('when Twitter and Telegram list contract addresses in the two envelopes, then they are merged per chain and address, mentions summed', async () => {
    const { result, spend } = await h.spend(() => h.adapters.elfa.trendingContracts());
    expect(result).to.deep.equal([
      { address: ETH_CA, chain: 'ethereum', mentions: 15 },
      { address: SOL_CA, chain: 'solana', mentions: 30 },
      { address: 'So11111111111111111111111111111111111111112', chain: 'solana', mentions: 0 },
    ]);
    expect(spend.elfa).to.deep.equal({ calls: 2, credits: 2, posts: 0 });
  });

  it('when the documented placeholder examples are answered, then they parse', async () => {
    h.fixtures.elfa.script('/v2/aggregations/trending-tokens', {
      body: {
        success: true,
        data: { pageSize: 1, page: 1, total: 1, data: [{ change_percent: 1, previous_count: 1, current_count: 1, token: 'string' }] },
      },
    });
    expect(await h.adapters.elfa.trendingTokens()).to.deep.equal([{ token: 'STRING', mentions: 1 }]);
    // Without the page echo, as Elfa's own tests guard against.
    h.fixtures.elfa.script('/v2/aggregations/trending-tokens', {
      body: { success: true, data: { data: [{ token: 'ETH', current_count: 2, previous_count: 0, change_percent: 0 }] } },
    });
    expect(await h.adapters.elfa.trendingTokens()).to.deep.equal([{ token: 'ETH', mentions: 2 }]);
  });

  it("when an account's posts are asked, then keyword-mentions?accountName= over the window, its own posts' engagement averaged, counts that are all null left out", async () => {
    const from = new Date('2026-11-24T00:00:00Z');
    const to = new Date('2026-11-27T00:00:00Z');
    const { result, spend } = await h.spend(() => h.adapters.elfa.accountPosts('Ghost_Acct', from, to));
    // (30 + 4 + 0 + 2 × (2 + 1)) and 6, averaged; Elfa's whole match is 4.
    expect(result).to.deep.equal({ totalPosts: 4, avgEngagement: 23 });
    expect(h.fixtures.elfa.requests[0]?.path).to.equal('/v2/data/keyword-mentions');
    expect(h.fixtures.elfa.requests[0]?.query).to.deep.equal({
      accountName: 'Ghost_Acct',
      from: String(from.getTime() / 1000),
      to: String(to.getTime() / 1000),
      limit: '30',
      reposts: 'false',
    });
    expect(spend.elfa).to.deep.equal({ calls: 1, credits: 1, posts: 0 });
    expect(await h.adapters.elfa.accountPosts('nobody_here', from, to)).to.deep.equal({ totalPosts: 0, avgEngagement: null });
  });

  for (const sparse of [{ success: true, data: {} }, { success: true }, { success: false, message: 'temporarily unavailable' }]) {
    it(`when keyword-mentions answers ${JSON.stringify(sparse)}, then it is an error, never zeros`, async () => {
      h.fixtures.elfa.script('/v2/data/keyword-mentions', { body: sparse });
      await rejection(h.adapters.elfa.accountPosts('ghost_acct', new Date(0), new Date()));
    });
  }

  for (const status of [404, 410] as const) {
    it(`when keyword-mentions answers ${status} for every account, then it is gone: one warning, a metric, not called again for a week, never "user unknown"`, async () => {
      h.fixtures.elfa.mode.accountPosts = 'gone';
      if (status === 410) h.fixtures.elfa.script('/v2/data/keyword-mentions', { status: 410, body: { success: false, error: 'Gone' } });
      expect(await h.adapters.elfa.accountPosts('ghost_acct', new Date(0), new Date())).to.equal('gone');
      expect(await h.adapters.elfa.accountPosts('cryptoalice', new Date(0), new Date())).to.equal('gone');
      expect(h.fixtures.elfa.requests).to.have.length(1);
      expect(h.logs.filter((line) => /route is gone/.test(line.msg))).to.have.length(1);
      expect(await h.redis.hget(keys.workerCounters(), 'provider_route_gone|elfa|/v2/data/keyword-mentions')).to.equal('1');

      h.clock.now = new Date(h.clock.now.getTime() + 7 * 86_400_000 + 1000);
      h.fixtures.elfa.mode.accountPosts = 'live';
      expect(await h.adapters.elfa.accountPosts('ghost_acct', new Date(0), new Date())).to.deep.include({ totalPosts: 4 });
    });
  }

  it('when the key status is a monthly plan, a prepaid key (limits null) or names only limits.monthly: null, then an unknown limit is null, never 0', async () => {
    expect(await h.adapters.elfa.keyStatus()).to.deep.equal({
      monthlyLimit: 1000,
      monthlyRemaining: 880,
      dailyLimit: 100,
      billingMode: 'arrears',
    });
    h.fixtures.elfa.mode.keyStatus = 'prepaid';
    expect(await h.adapters.elfa.keyStatus()).to.deep.equal({
      monthlyLimit: null,
      monthlyRemaining: null,
      dailyLimit: null,
      billingMode: 'deposit',
    });
    h.fixtures.elfa.mode.keyStatus = 'monthly-null';
    expect(await h.adapters.elfa.keyStatus()).to.deep.include({ monthlyLimit: null, dailyLimit: null });
  });

  it('when a 200 says success:false, then it is an error, not an empty list', async () => {
    h.fixtures.elfa.script('/v2/aggregations/trending-tokens', { body: { success: false, error: 'temporarily disabled' } });
    const error = await rejection(h.adapters.elfa.trendingTokens());
    expect(error.message).to.match(/success false/);
  });

  it('when the key is refused (401), then one error line names ELFA_API_KEY, the job is not retried, and the key is nowhere', async () => {
    h.fixtures.elfa.script(
      '/v2/aggregations',
      { status: 401, body: { error: 'Invalid API key' } },
      { status: 401, body: { message: 'Invalid API key' } },
    );
    const first = await rejection(h.adapters.elfa.trendingTokens());
    const second = await rejection(h.adapters.elfa.trendingTokens());
    expect(first.retryable).to.equal(false);
    expect(first.message).to.match(/HTTP 401: check ELFA_API_KEY/);
    expect(second.retryable).to.equal(false);
    const refusals = h.logs.filter((line) => /key was refused/.test(line.msg));
    expect(refusals).to.have.length(1);
    expect(refusals[0]!.msg).to.match(/^elfa: HTTP 401.*ELFA_API_KEY/);
    expect(h.fixtures.elfa.requests).to.have.length(2);
    const everything =
      JSON.stringify(h.logs) + first.message + second.message + JSON.stringify(await h.redis.hgetall(keys.workerCounters()));
    expect(everything).to.not.include(ELFA_KEY);
  });

  it('when out of credits (402), then Elfa is not called again before the 1st of next month, and the counters and one log line say why', async () => {
    h.fixtures.elfa.script('/v2/aggregations/trending-tokens', { status: 402, body: { message: 'Top up or upgrade the plan' } });
    const error = await rejection(h.adapters.elfa.trendingTokens());
    expect(error.retryable).to.equal(false);
    const again = await rejection(h.adapters.elfa.trendingContracts());
    expect(again.message).to.match(/not called: out of credits/);
    expect(h.fixtures.elfa.requests).to.have.length(1);
    const block = JSON.parse((await h.redis.hget(providerKeys.blocked(), 'elfa'))!) as { until: string; reason: string };
    const now = h.clock.now;
    expect(block.until).to.equal(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    expect(await h.redis.hget(keys.workerCounters(), 'provider_blocked|elfa|out of credits (HTTP 402)')).to.equal('1');
    expect(h.logs.filter((line) => /out of credits/.test(line.msg))).to.have.length(1);

    // At the reset, calls resume.
    h.clock.now = new Date(Date.parse(block.until) + 1000);
    expect(await h.adapters.elfa.trendingTokens()).to.have.length(5);
  });

  for (const [name, headers] of [
    ['x-ratelimit-reset (epoch seconds)', () => ({ 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1) })],
    ['Retry-After (seconds)', () => ({ 'retry-after': '1' })],
    ['Retry-After (an HTTP date)', () => ({ 'retry-after': new Date(Date.now() + 1500).toUTCString() })],
  ] as const) {
    it(`when rate limited (429 with ${name}), then it waits for the reset and tries exactly once more`, async () => {
      h.fixtures.elfa.script('/v2/aggregations/trending-tokens', { status: 429, headers: headers(), body: { error: 'rate limited' } });
      const started = Date.now();
      const { result, spend } = await h.spend(() => h.adapters.elfa.trendingTokens());
      expect(result).to.have.length(5);
      expect(Date.now() - started).to.be.at.least(400);
      expect(h.fixtures.elfa.requests).to.have.length(2);
      expect(spend.elfa?.calls).to.equal(2);
    });
  }

  it('when the retry after the reset is rate limited again, then it fails without a third call, not retried by the job', async () => {
    const reset = { 'retry-after': '0' };
    h.fixtures.elfa.script(
      '/v2/aggregations/trending-tokens',
      { status: 429, headers: reset },
      { status: 429, headers: reset },
      { status: 429, headers: reset },
    );
    const error = await rejection(h.adapters.elfa.trendingTokens());
    expect(error.status).to.equal(429);
    expect(error.retryable).to.equal(false);
    expect(h.fixtures.elfa.requests).to.have.length(2);
  });

  it('when the reset is further than the wait cap, then no wait and no retry: the job fails with retryAfterMs', async () => {
    h.fixtures.elfa.script('/v2/aggregations/trending-tokens', elfaRateLimited(600));
    const error = await rejection(h.adapters.elfa.trendingTokens());
    expect(error.retryable).to.equal(false);
    expect(error.retryAfterMs).to.be.greaterThan(500_000);
    expect(h.fixtures.elfa.requests).to.have.length(1);
  });

  it('when Elfa fails (5xx), then the error is retryable by the job (bounded attempts)', async () => {
    h.fixtures.elfa.script('/v2/aggregations/trending-tokens', { status: 503, body: { message: 'retry shortly' } });
    const error = await rejection(h.adapters.elfa.trendingTokens());
    expect(error.status).to.equal(503);
    expect(error.retryable).to.equal(true);
  });

  it('when Elfa answers slowly, then the request times out', async () => {
    h.fixtures.elfa.script('/v2/aggregations/trending-tokens', { delayMs: 4_000, body: {} });
    const started = Date.now();
    const error = await rejection(h.adapters.elfa.trendingTokens());
    expect(error.message).to.match(/timed out/);
    expect(Date.now() - started).to.be.below(3_500);
  });

  it('when the body is malformed, then it is an error that names no key', async () => {
    h.fixtures.elfa.script('/v2/aggregations/trending-tokens', { body: '{"success":true,"data":{"data":[{"token":' });
    const error = await rejection(h.adapters.elfa.trendingTokens());
    expect(error.message).to.match(/malformed JSON/);
    expect(error.message).to.not.include(ELFA_KEY);
  });
});
