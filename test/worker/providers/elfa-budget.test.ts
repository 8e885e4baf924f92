import { expect } from 'chai';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { redisCounter } from '../../../apps/worker/src/counters.js';
import { createWorkerProvider } from '../../../apps/worker/src/providers/create-provider.js';
import { elfaSchedule } from '../../../apps/worker/src/providers/elfa-budget.js';
import { loadConfig } from '../../../shared/config.js';
import { providerKeys } from '../../../shared/provider-keys.js';
import { startProviderFixtures, type ProviderFixtures } from '../../../dev/provider-fixtures/index.js';
import { sharedTestRedis } from '../../support/redis-server.js';
import { freshKeyPrefix } from '../../support/shared-redis.js';
import { rejection } from './helpers.js';

const MINUTE = 60_000;

describe('the Elfa refresh interval a month of credits allows', () => {
  it('when the free plan (1,000 credits), then every 149 minutes: 300 rounds of 3 credits in 31 days, 90 % of the budget', () => {
    expect(elfaSchedule(1_000, 30 * MINUTE)).to.deep.equal({ intervalMs: 149 * MINUTE, budgetIntervalMs: 149 * MINUTE, creditsPerDay: 29 });
  });

  it('when Grow (40,000 credits), then the budget would allow 4 minutes, so REFRESH_INTERVAL (30 minutes) stands', () => {
    expect(elfaSchedule(40_000, 30 * MINUTE)).to.deep.equal({ intervalMs: 30 * MINUTE, budgetIntervalMs: 4 * MINUTE, creditsPerDay: 144 });
    expect(elfaSchedule(40_000, MINUTE).intervalMs).to.equal(4 * MINUTE);
  });

  it('when a month of scheduled rounds is spent at the chosen interval, then it fits the budget', () => {
    for (const credits of [3, 100, 1_000, 5_000, 40_000, 1_000_000]) {
      const { intervalMs } = elfaSchedule(credits, MINUTE);
      expect(Math.ceil((31 * 1440 * MINUTE) / intervalMs) * 3, String(credits)).to.be.at.most(Math.max(3, credits));
    }
  });
});

describe('the Elfa budget the worker chooses at start (key status, ELFA_MONTHLY_CREDITS, ELFA_DAILY_CREDITS)', () => {
  let fixtures: ProviderFixtures;
  let redis: Redis;
  let logs: { msg: string }[];
  beforeEach(async () => {
    fixtures = await startProviderFixtures();
    redis = new Redis((await sharedTestRedis()).url, { protocol: 2 });
    freshKeyPrefix();
    logs = [];
  });
  afterEach(async () => {
    await fixtures.close();
    redis.disconnect();
  });

  async function start(env: Record<string, string> = {}) {
    const config = loadConfig({ NODE_ENV: 'test', REFRESH_INTERVAL: '30m', ...fixtures.env, ...env });
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as { msg: string }) });
    const started = await createWorkerProvider(config, redis, logger, redisCounter(redis));
    return { ...started, interval: started.refreshEveryMsByJob['refresh-trending'] };
  }
  const budgetLine = () => logs.find((line) => line.msg.startsWith('elfa: '))?.msg;

  it('when the key status names a monthly limit, then the refreshes are spaced to it and the log says which', async () => {
    expect((await start()).interval).to.equal(149 * MINUTE);
    expect(budgetLine()).to.equal(
      'elfa: 1000 credits a month (the key status (/v2/key-status)): trending and trending-cas refresh every 149 min, 29 credits a day',
    );
  });

  for (const mode of ['prepaid', 'monthly-null'] as const) {
    it(`when the key status names no monthly limit (${mode}), then it is unknown, not 0: REFRESH_INTERVAL sets the pace (not 149 minutes, not 31 days) and the log says so`, async () => {
      fixtures.elfa.mode.keyStatus = mode;
      expect((await start()).interval).to.equal(30 * MINUTE);
      expect(budgetLine()).to.match(
        /^elfa: no credit budget \(the key status names no limit.*\): trending and trending-cas refresh every REFRESH_INTERVAL, 30 min, 144 credits a day; set ELFA_DAILY_CREDITS/,
      );
    });
  }

  it('when ELFA_DAILY_CREDITS is set, then the refreshes fit a day of it, whatever the key status says', async () => {
    fixtures.elfa.mode.keyStatus = 'prepaid';
    expect((await start({ ELFA_DAILY_CREDITS: '30' })).interval).to.equal(160 * MINUTE);
    expect(budgetLine()).to.equal(
      'elfa: 30 credits a day (ELFA_DAILY_CREDITS): trending and trending-cas refresh every 160 min, 27 credits a day',
    );
    expect(fixtures.elfa.requestsTo('/v2/key-status')).to.have.length(0);
  });

  it('when a prepaid key is out of credits (402), then Elfa is asked again an hour later, not on the 1st of next month', async () => {
    fixtures.elfa.mode.keyStatus = 'prepaid';
    const { provider } = await start();
    fixtures.elfa.script('/v2/aggregations/trending-tokens', { status: 402, body: { message: 'Top up or upgrade the plan' } });
    const before = Date.now();
    await rejection(provider.trendingTokens());
    const { until } = JSON.parse((await redis.hget(providerKeys.blocked(), 'elfa'))!) as { until: string };
    expect(Date.parse(until) - before).to.be.within(3_600_000 - 1000, 3_600_000 + 5000);
  });

  it('when a monthly plan is out of credits (402), then Elfa waits for the 1st of next month', async () => {
    const { provider } = await start();
    fixtures.elfa.script('/v2/aggregations/trending-tokens', { status: 402, body: { message: 'Top up or upgrade the plan' } });
    await rejection(provider.trendingTokens());
    const { until } = JSON.parse((await redis.hget(providerKeys.blocked(), 'elfa'))!) as { until: string };
    const now = new Date();
    expect(until).to.equal(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
  });
});
