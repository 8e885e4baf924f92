/**
 * What each job spends at each provider (docs/providers.md, "Quotas and errors"). The worker runs
 * every job inside a meter (AsyncLocalStorage), so the adapters record into the job's own without
 * threading it through the refresh code; the total is part of the job's result, hence its log line.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ProviderName } from '../../../../shared/provider-keys.js';

export interface ProviderSpend {
  calls: number;
  /** Elfa: credits charged; CoinGecko: calls (1 call = 1 credit); X: 0 (X bills posts). */
  credits: number;
  /** X: posts returned (billed per post read). */
  posts: number;
  /** X: user objects returned (billed per user read: the daily lookup of the tracked accounts); absent when none. */
  users?: number;
}

export type Spend = Partial<Record<ProviderName, ProviderSpend>>;

/** One job's meter: filled even when the job fails (a failed call may still be billed). */
export interface Meter {
  spend: Spend;
  /** A request reached a provider that bills, or may have (a timeout, a reset): the worker does not run the job again (worker.ts). */
  billed: boolean;
}

const current = new AsyncLocalStorage<Meter>();

export function withMeter<T>(meter: Meter, task: () => Promise<T>): Promise<T> {
  return current.run(meter, task);
}

/** Runs `task` with a fresh meter; resolves with its result and what it spent (empty: no provider call). */
export async function measureSpend<T>(task: () => Promise<T>): Promise<{ result: T; spend: Spend }> {
  const meter: Meter = { spend: {}, billed: false };
  const result = await withMeter(meter, task);
  return { result, spend: meter.spend };
}

/** Marks the running job as having reached a provider that bills (no-op outside a job). */
export function recordBilledCall(): void {
  const meter = current.getStore();
  if (meter) meter.billed = true;
}

/** Adds to the running job's meter (no-op outside a job, e.g. at start-up). */
export function recordSpend(provider: ProviderName, add: Partial<ProviderSpend>): void {
  const spend = current.getStore()?.spend;
  if (!spend) return;
  const entry = (spend[provider] ??= { calls: 0, credits: 0, posts: 0 });
  entry.calls += add.calls ?? 0;
  entry.credits += add.credits ?? 0;
  entry.posts += add.posts ?? 0;
  if (add.users !== undefined) entry.users = (entry.users ?? 0) + add.users;
}
