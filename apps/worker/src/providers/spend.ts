/**
 * What each job spends at each provider (docs/providers.md, "Quotas"): calls, Elfa credits
 * (`x-elfa-credits`), CoinGecko credits (1 a call) and X posts read. The worker runs every job
 * inside `measureSpend`, so the adapters record into the job's own meter without threading it
 * through the refresh code; the total is part of the job's result, hence its log line.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ProviderName } from '../../../../shared/provider-keys.js';

export interface ProviderSpend {
  calls: number;
  /** Elfa: credits charged; CoinGecko: calls (1 call = 1 credit); X: 0 (X bills posts). */
  credits: number;
  /** X: posts returned (billed per post); users resolved are counted as calls. */
  posts: number;
}

export type Spend = Partial<Record<ProviderName, ProviderSpend>>;

const current = new AsyncLocalStorage<Spend>();

/** Runs `task` recording into `spend` (filled even when the task fails: a failed call may still be billed). */
export function withSpend<T>(spend: Spend, task: () => Promise<T>): Promise<T> {
  return current.run(spend, task);
}

/** Runs `task` with a fresh meter; resolves with its result and what it spent (empty: no provider call). */
export async function measureSpend<T>(task: () => Promise<T>): Promise<{ result: T; spend: Spend }> {
  const spend: Spend = {};
  const result = await withSpend(spend, task);
  return { result, spend };
}

/** Adds to the running job's meter (no-op outside a job, e.g. at start-up). */
export function recordSpend(provider: ProviderName, add: Partial<ProviderSpend>): void {
  const spend = current.getStore();
  if (!spend) return;
  const entry = (spend[provider] ??= { calls: 0, credits: 0, posts: 0 });
  entry.calls += add.calls ?? 0;
  entry.credits += add.credits ?? 0;
  entry.posts += add.posts ?? 0;
}
