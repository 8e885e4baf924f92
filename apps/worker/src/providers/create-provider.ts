/** The worker's provider, as INDEX_PROVIDER says, and with `composite` the interval the Elfa credit budget sets, logged once at start. */
import type { Redis } from 'ioredis';
import type { Config } from '../../../../shared/config.js';
import type { Logger } from '../../../../shared/logger.js';
import type { ProvidersConfig } from '../../../../shared/provider-config.js';
import type { RefreshJobName } from '../../../../shared/queues.js';
import { SNAPSHOT_KINDS } from '../../../../shared/snapshot-kinds.js';
import type { CountFn } from '../counters.js';
import { createIndexClient } from './index-client.js';
import { createAdapters, createCompositeProvider } from './composite.js';
import { elfaCreditsPerRound, elfaListKinds, elfaPlan, type ElfaBudget } from './elfa-budget.js';
import type { ElfaAdapter } from './elfa.js';
import { firstOfNextMonth } from './upstream-http.js';
import type { MarketProvider } from './market-provider.js';

/** The free plan's credits: the budget assumed when neither the variable nor the key's status says. */
const FREE_PLAN_CREDITS = 1_000;

export interface WorkerProvider {
  provider: MarketProvider;
  /** Refresh jobs that must run less often than REFRESH_INTERVAL (the Elfa-backed ones), in ms. */
  refreshEveryMsByJob: Partial<Record<RefreshJobName, number>>;
}

export async function createWorkerProvider(config: Config, redis: Redis, logger: Logger, count: CountFn): Promise<WorkerProvider> {
  if (config.indexProvider === 'index' || !config.providers) {
    return { provider: createIndexClient({ baseUrl: config.indexApiUrl, apiKey: config.indexApiKey }), refreshEveryMsByJob: {} };
  }
  const billing = { monthly: true };
  const options = {
    config: config.providers,
    redis,
    logger,
    count,
    // A monthly plan's credits come back on the 1st; a prepaid balance can be topped up at any time.
    elfaOutOfCreditsUntil: (now: Date) => (billing.monthly ? firstOfNextMonth(now) : new Date(now.getTime() + 3_600_000)),
  };
  const adapters = createAdapters(options);
  const budget = await elfaBudget(config.providers.elfa, adapters.elfa, logger);
  billing.monthly = budget.period === 'month';
  // Each configured window (TRENDING_WINDOWS) is a round's requests of its own.
  const elfaKinds = elfaListKinds(config.trendingWindows);
  const plan = elfaPlan(budget, config.refreshIntervalMs, elfaKinds.join(' and '), elfaCreditsPerRound(elfaKinds));
  const { intervalMs, creditsPerDay, lookupsPerDay } = plan;
  logger.info({ provider: 'elfa', budget, intervalMinutes: intervalMs / 60_000, creditsPerDay, lookupsPerDay }, plan.summary);
  return {
    provider: createCompositeProvider({ ...options, elfaLookupsPerDay: lookupsPerDay }, adapters),
    // The Elfa-backed kinds' refreshes keep the budget's interval.
    refreshEveryMsByJob: Object.fromEntries(elfaKinds.map((kind) => [SNAPSHOT_KINDS[kind].refreshJob, intervalMs])),
  };
}

/** The budget the Elfa refreshes are spaced to fit, in docs/providers.md's order; the free plan when the key status cannot be had. */
async function elfaBudget(elfa: ProvidersConfig['elfa'], adapter: ElfaAdapter, logger: Logger): Promise<ElfaBudget> {
  if (elfa.monthlyCredits !== undefined) return { period: 'month', credits: elfa.monthlyCredits, source: 'ELFA_MONTHLY_CREDITS' };
  if (elfa.dailyCredits !== undefined) return { period: 'day', credits: elfa.dailyCredits, source: 'ELFA_DAILY_CREDITS' };
  try {
    const status = await adapter.keyStatus();
    if (status.monthlyLimit !== null) return { period: 'month', credits: status.monthlyLimit, source: 'the key status (/v2/key-status)' };
    if (status.dailyLimit !== null) return { period: 'day', credits: status.dailyLimit, source: 'the key status (/v2/key-status)' };
    return {
      period: 'none',
      source: `the key status names no limit${status.billingMode ? `, billing ${status.billingMode}` : ''}: a prepaid key`,
    };
  } catch (error) {
    logger.warn({ provider: 'elfa', err: (error as Error).message }, 'elfa: the key status is unavailable; assuming the free plan');
    return {
      period: 'month',
      credits: FREE_PLAN_CREDITS,
      source: 'the free plan (no ELFA_MONTHLY_CREDITS or ELFA_DAILY_CREDITS, no key status)',
    };
  }
}
