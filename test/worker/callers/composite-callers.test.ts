/**
 * Callers in composite mode (issue 48): the same figures from X posts and Elfa trending as they
 * answer today (X in OpenAPI 2.167's names, a prepaid Elfa key). The worker's refresh jobs run over
 * the composite provider against the fixture servers; a tracked account posts about a token three
 * hours before Elfa's trending lists it, and the API's reads name that account its first caller.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { redisCounter } from '../../../apps/worker/src/counters.js';
import { createJobContext } from '../../../apps/worker/src/jobs/create-job-context.js';
import { refreshList } from '../../../apps/worker/src/jobs/refresh-list.js';
import { refreshNews } from '../../../apps/worker/src/jobs/refresh-news.js';
import { createWorkerProvider } from '../../../apps/worker/src/providers/create-provider.js';
import { loadConfig } from '../../../shared/config.js';
import { HOUR_MS, MINUTE_MS } from '../../../shared/durations.js';
import { startProviderFixtures, type ProviderFixtures } from '../../../dev/provider-fixtures/index.js';
import { http } from '../../support/http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';

/** Elfa's trending-tokens page as it answers today, with `ZORA` entering at the top. */
const trendingWithZora = {
  headers: { 'x-elfa-credits': '1' },
  body: {
    success: true,
    data: {
      pageSize: 50,
      page: 1,
      total: 3,
      data: [
        { token: 'ZORA', current_count: 300, previous_count: 20, change_percent: 1400 },
        { token: 'SOL', current_count: 120, previous_count: 90, change_percent: 33.3 },
        { token: 'BTC', current_count: 95, previous_count: 80, change_percent: 18.75 },
      ],
    },
  },
};

interface FirstCaller {
  username: string;
  calledAt: string;
  leadMinutes: number;
  post: { id: string; text: string };
}

describe('callers in composite mode (X posts, Elfa trending, as they answer today)', function () {
  this.timeout(60_000);
  let stack: Stack;
  let fixtures: ProviderFixtures;
  const t0 = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
  let clock = t0;

  before(async () => {
    fixtures = await startProviderFixtures({ x: { dialect: '2.167' } });
    fixtures.elfa.mode.keyStatus = 'prepaid';
    stack = await startStack({ workers: 0 });
    const config = loadConfig({ NODE_ENV: 'test', ...stack.redisEnv, ...fixtures.env, LOG_LEVEL: 'silent' });
    const logger = pino({ level: 'silent' });
    const { provider } = await createWorkerProvider(config, stack.redis, logger, redisCounter(stack.redis));
    const context = createJobContext({ redis: stack.redis, provider, logger, now: () => new Date(clock), callers: stack.config.callers });
    // The first refreshes seed what was already posted and trending: nobody saw those begin.
    await refreshList(context, 'trending');
    await refreshList(context, 'trending-cas');
    await refreshNews(context);
    // CryptoAlice names ZORA three hours before the next news refresh sees it, then Elfa lists ZORA first.
    fixtures.x.addPost({
      id: '1900000000000000200',
      author_id: '1001',
      created_at: new Date(t0 - 3 * HOUR_MS).toISOString(),
      text: '$ZORA is quietly building, early here',
      metrics: { like: 8, repost: 1, reply: 2, quote: 0, bookmark: 1 },
      cashtags: ['ZORA'],
    });
    clock = t0 + MINUTE_MS;
    await refreshNews(context);
    fixtures.elfa.script('/v2/aggregations/trending-tokens', trendingWithZora);
    clock = t0 + 2 * MINUTE_MS;
    await refreshList(context, 'trending');
  });
  /** The read once the API has seen the last trending refresh (it learns of a refresh a moment after it is stored). */
  const asOfLastRefresh = <T>(path: string) =>
    eventually(
      async () => {
        const res = await http(`${stack.apiUrl}${path}`);
        expect(res.status).to.equal(200);
        const body = res.json as T & { cachedAt: string };
        return body.cachedAt === new Date(t0 + 2 * MINUTE_MS).toISOString() ? body : undefined;
      },
      10_000,
      `${path} as of the last trending refresh`,
    );

  after(async () => {
    await stack?.close();
    await fixtures?.close();
  });

  it("when a tracked account named a token 3 h before Elfa's trending listed it, then it is the token's first caller with that lead", async () => {
    const body = await asOfLastRefresh<{ breakouts: { at: string; callers: number; firstCallers: FirstCaller[] }[] }>(
      '/api/market/tokens/ZORA/callers?window=7d',
    );
    expect(body.breakouts).to.have.length(1);
    const [breakout] = body.breakouts;
    expect(breakout?.at).to.equal(new Date(t0 + 2 * MINUTE_MS).toISOString());
    expect(breakout?.callers).to.equal(1);
    expect(breakout?.firstCallers[0]).to.deep.include({
      username: 'CryptoAlice',
      calledAt: new Date(t0 - 3 * HOUR_MS).toISOString(),
      leadMinutes: 182,
    });
    expect(breakout?.firstCallers[0]?.post).to.deep.equal({ id: '1900000000000000200', text: '$ZORA is quietly building, early here' });
  });

  it('when the leaderboard is read, then that account has one call, one hit and its lead; the seeded posts made no call', async () => {
    const res = await http(`${stack.apiUrl}/api/market/callers?window=7d&minCalls=1`);
    expect(res.status).to.equal(200);
    const board = res.json as {
      data: { username: string; calls: number; hits: number; hitRate: number | null; medianLeadMinutes: number | null }[];
    };
    expect(board.data).to.deep.equal([
      { username: 'CryptoAlice', followers: 52000, calls: 1, hits: 1, pending: 0, misses: 0, hitRate: 1, medianLeadMinutes: 182 },
    ]);
  });
});
