/** A composite provider in the test process, over the fixture servers and the tests' Redis, with its log lines kept. */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import {
  createAdapters,
  createCompositeProvider,
  type CompositeAdapters,
  type CompositeOptions,
} from '../../../apps/worker/src/providers/composite.js';
import type { MarketProvider } from '../../../apps/worker/src/providers/market-provider.js';
import { measureSpend, type Spend } from '../../../apps/worker/src/providers/spend.js';
import { redisCounter } from '../../../apps/worker/src/counters.js';
import { loadConfig } from '../../../shared/config.js';
import type { ProvidersConfig } from '../../../shared/provider-config.js';
import { sharedTestRedis } from '../../support/redis-server.js';
import { freshKeyPrefix } from '../../support/shared-redis.js';
import { startProviderFixtures, type ProviderFixtures } from '../../../dev/provider-fixtures/index.js';
import type { XFixtureOptions } from '../../../dev/provider-fixtures/x.js';

export interface Harness {
  fixtures: ProviderFixtures;
  redis: Redis;
  config: ProvidersConfig;
  adapters: CompositeAdapters;
  provider: MarketProvider;
  /** Every log line, parsed. */
  logs: { level: number; msg: string; [field: string]: unknown }[];
  clock: { now: Date };
  /** A fresh provider over the same Redis (a restarted worker), with `env` over the first one's and other options if given. */
  restart(env?: Record<string, string>, options?: Partial<CompositeOptions>): MarketProvider;
  /** Runs `task` as a job would, with its spend measured. */
  spend<T>(task: () => Promise<T>): Promise<{ result: T; spend: Spend }>;
  close(): Promise<void>;
}

export async function startHarness(
  env: Record<string, string> = {},
  options: { timeoutMs?: number; maxRateLimitWaitMs?: number; x?: XFixtureOptions } = {},
): Promise<Harness> {
  const fixtures = await startProviderFixtures({ x: options.x });
  const redis = new Redis((await sharedTestRedis()).url, { protocol: 2 });
  freshKeyPrefix();
  const config = loadConfig({ NODE_ENV: 'test', ...fixtures.env, ...env }).providers!;
  const logs: Harness['logs'] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as Harness['logs'][number]) });
  const clock = { now: new Date() };
  const make = (config: ProvidersConfig, extra: Partial<CompositeOptions> = {}) => {
    const composite: CompositeOptions = {
      config,
      redis,
      logger,
      count: redisCounter(redis),
      now: () => clock.now,
      timeoutMs: options.timeoutMs ?? 2_000,
      maxRateLimitWaitMs: options.maxRateLimitWaitMs ?? 5_000,
      ...extra,
    };
    const adapters = createAdapters(composite);
    return { adapters, provider: createCompositeProvider(composite, adapters) };
  };
  const first = make(config);
  return {
    fixtures,
    redis,
    config,
    adapters: first.adapters,
    provider: first.provider,
    logs,
    clock,
    restart: (more = {}, extra = {}) => make(loadConfig({ NODE_ENV: 'test', ...fixtures.env, ...env, ...more }).providers!, extra).provider,
    spend: (task) => measureSpend(task),
    async close() {
      await fixtures.close();
      redis.disconnect();
    },
  };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(
  promise: Promise<unknown>,
): Promise<Error & { status?: number; retryable?: boolean; retryAfterMs?: number }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { status?: number; retryable?: boolean; retryAfterMs?: number };
  }
  throw new Error('expected a rejection');
}
