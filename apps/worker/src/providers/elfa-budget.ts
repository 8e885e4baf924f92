/**
 * How far apart the Elfa-backed refreshes (the list kinds whose `cost.source` is elfa in
 * shared/snapshot-kinds.ts) must be for the schedule to fit the credit budget (docs/providers.md,
 * "The Elfa credit budget"). A round never costs more than planned: a refresh whose request
 * reached Elfa is not retried by its job (worker.ts).
 */
import { DAY_MS, MINUTE_MS } from '../../../../shared/durations.js';
import { activeSnapshots, LIST_KINDS, listOf, type ListKind } from '../../../../shared/snapshot-kinds.js';
import { DEFAULT_WINDOW, type TrendingWindow } from '../../../../shared/trending-windows.js';

/** The list kinds Elfa answers for these TRENDING_WINDOWS (each window its own requests). */
export function elfaListKinds(windows: readonly TrendingWindow[] = [DEFAULT_WINDOW]): readonly ListKind[] {
  const active = activeSnapshots(windows);
  return LIST_KINDS.filter((kind) => active.includes(kind) && listOf(kind).cost.source === 'elfa');
}
/** Credits one round of these refreshes spends: the sum of their `cost.credits`. */
export function elfaCreditsPerRound(kinds: readonly ListKind[]): number {
  return kinds.reduce((sum, kind) => sum + listOf(kind).cost.credits, 0);
}
/** The 24 h lists' round (TRENDING_WINDOWS unset). */
const ELFA_CREDITS_PER_ROUND = elfaCreditsPerRound(elfaListKinds());

/** The schedule's share of the budget; the rest is left to stats lookups (1 credit each). */
export const SCHEDULE_SHARE = 0.9;
export const MONTH_MS = 31 * DAY_MS;

/** Where the budget came from: a variable, the key's status, or nothing (a prepaid key). */
export type ElfaBudget = { period: 'month' | 'day'; credits: number; source: string } | { period: 'none'; source: string };

export interface ElfaSchedule {
  /** The interval chosen for the Elfa-backed refreshes. */
  intervalMs: number;
  /** The shortest interval the budget allows. */
  budgetIntervalMs: number;
  /** Credits the schedule spends a day at `intervalMs`. */
  creditsPerDay: number;
}

export function elfaSchedule(
  credits: number,
  refreshEveryMs: number,
  periodMs = MONTH_MS,
  perRound = ELFA_CREDITS_PER_ROUND,
): ElfaSchedule {
  const rounds = Math.max(1, Math.floor((credits * SCHEDULE_SHARE) / perRound));
  const budgetIntervalMs = Math.ceil(periodMs / rounds / MINUTE_MS) * MINUTE_MS;
  const intervalMs = Math.max(budgetIntervalMs, refreshEveryMs);
  return { intervalMs, budgetIntervalMs, creditsPerDay: creditsPerDay(intervalMs, perRound) };
}

const creditsPerDay = (intervalMs: number, perRound: number) => Math.round((DAY_MS / intervalMs) * perRound * 10) / 10;

export interface ElfaPlan {
  intervalMs: number;
  creditsPerDay: number;
  /** Stats lookups (1 credit each) a UTC day may spend: the budget's other 10 %, at least 1. */
  lookupsPerDay: number;
  /** The one line the worker logs at start: which budget, and the pace it sets. */
  summary: string;
}

/** The schedule and the lookup budget a budget allows, and the line that says so. */
export function elfaPlan(budget: ElfaBudget, refreshEveryMs: number, kinds: string, perRound: number): ElfaPlan {
  if (budget.period === 'none') {
    const perDay = creditsPerDay(refreshEveryMs, perRound);
    return {
      intervalMs: refreshEveryMs,
      creditsPerDay: perDay,
      lookupsPerDay: Math.max(1, Math.floor((perDay * (1 - SCHEDULE_SHARE)) / SCHEDULE_SHARE)),
      summary: `elfa: no credit budget (${budget.source}): ${kinds} refresh every REFRESH_INTERVAL, ${refreshEveryMs / MINUTE_MS} min, ${perDay} credits a day; set ELFA_DAILY_CREDITS or ELFA_MONTHLY_CREDITS to cap them`,
    };
  }
  const periodMs = budget.period === 'month' ? MONTH_MS : DAY_MS;
  const schedule = elfaSchedule(budget.credits, refreshEveryMs, periodMs, perRound);
  const lookups = (budget.credits * (1 - SCHEDULE_SHARE) * DAY_MS) / periodMs;
  return {
    intervalMs: schedule.intervalMs,
    creditsPerDay: schedule.creditsPerDay,
    lookupsPerDay: Math.max(1, Math.floor(lookups)),
    summary: `elfa: ${budget.credits} credits a ${budget.period} (${budget.source}): ${kinds} refresh every ${schedule.intervalMs / MINUTE_MS} min, ${schedule.creditsPerDay} credits a day`,
  };
}
