/**
 * The worker's provider, as INDEX_PROVIDER says, and with `composite` the interval the
 * Elfa-backed refreshes must keep for the month's credits (ELFA_MONTHLY_CREDITS, else the key's
 * own status, free to ask), logged once at start.
 */
import type { Redis } from 'ioredis';
import type { Config } from '../../../../shared/config.js';
import type { Logger } from '../../../../shared/logger.js';
import type { RefreshJobName } from '../../../../shared/queues.js';
import { SNAPSHOT_KINDS } from '../../../../shared/snapshot-kinds.js';
import type { CountFn } from '../counters.js';
import { createIndexClient } from '../index-client.js';
import { createAdapters, createCompositeProvider } from './composite.js';
import { ELFA_LIST_KINDS, elfaSchedule } from './elfa-budget.js';
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
  const options = { config: config.providers, redis, logger, count };
  const adapters = createAdapters(options);
  let credits = config.providers.elfa.monthlyCredits;
  let source = 'ELFA_MONTHLY_CREDITS';
  if (credits === undefined) {
    try {
      credits = (await adapters.elfa.keyStatus()).monthlyLimit;
      source = 'the key status (/v2/key-status)';
    } catch (error) {
      logger.warn({ provider: 'elfa', err: (error as Error).message }, 'elfa: the key status is unavailable; assuming the free plan');
    }
    if (credits === undefined) {
      credits = FREE_PLAN_CREDITS;
      source = 'the free plan (no ELFA_MONTHLY_CREDITS, no key status)';
    }
  }
  const schedule = elfaSchedule(credits, config.refreshIntervalMs);
  logger.info(
    {
      provider: 'elfa',
      monthlyCredits: credits,
      source,
      intervalMinutes: schedule.intervalMs / 60_000,
      budgetIntervalMinutes: schedule.budgetIntervalMs / 60_000,
      creditsPerDay: schedule.creditsPerDay,
    },
    `elfa: ${credits} credits a month (${source}): ${ELFA_LIST_KINDS.join(' and ')} refresh every ${schedule.intervalMs / 60_000} min, ${schedule.creditsPerDay} credits a day`,
  );
  return {
    provider: createCompositeProvider(options, adapters),
    // The Elfa-backed kinds' refreshes keep the budget's interval.
    refreshEveryMsByJob: Object.fromEntries(ELFA_LIST_KINDS.map((kind) => [SNAPSHOT_KINDS[kind].refreshJob, schedule.intervalMs])),
  };
}
