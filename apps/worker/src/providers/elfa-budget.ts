/**
 * How far apart the Elfa-backed refreshes (the list kinds whose `cost.source` is elfa in
 * shared/snapshot-kinds.ts) must be for a month's schedule to fit the credit budget
 * (docs/providers.md, "Quotas"). One round of those refreshes costs ELFA_CREDITS_PER_ROUND
 * credits, the sum of their `cost.credits`; the schedule may use SCHEDULE_SHARE of the
 * month's credits, the rest is left to on-demand stats lookups (1 credit each). The month is
 * taken as 31 days, the longest, and the interval is rounded up to a whole minute; it is never
 * shorter than REFRESH_INTERVAL. A round never costs more than that: a refresh whose request
 * reached Elfa is not retried by its job (worker.ts), it waits for the next scheduled one.
 */
import { LIST_KINDS, listOf, type ListKind } from '../../../../shared/snapshot-kinds.js';

/** The list kinds Elfa answers with INDEX_PROVIDER=composite: their refreshes keep the budget's interval. */
export const ELFA_LIST_KINDS: readonly ListKind[] = LIST_KINDS.filter((kind) => listOf(kind).cost.source === 'elfa');
/** Credits one round of the Elfa-backed refreshes spends. */
export const ELFA_CREDITS_PER_ROUND = ELFA_LIST_KINDS.reduce((sum, kind) => sum + listOf(kind).cost.credits, 0);

export const SCHEDULE_SHARE = 0.9;
const MONTH_MS = 31 * 86_400_000;
const MINUTE_MS = 60_000;

export interface ElfaSchedule {
  /** The interval chosen for the Elfa-backed refreshes. */
  intervalMs: number;
  /** The shortest interval the budget allows. */
  budgetIntervalMs: number;
  /** Credits the schedule spends a day at `intervalMs`. */
  creditsPerDay: number;
}

export function elfaSchedule(monthlyCredits: number, refreshEveryMs: number): ElfaSchedule {
  const rounds = Math.max(1, Math.floor((monthlyCredits * SCHEDULE_SHARE) / ELFA_CREDITS_PER_ROUND));
  const budgetIntervalMs = Math.ceil(MONTH_MS / rounds / MINUTE_MS) * MINUTE_MS;
  const intervalMs = Math.max(budgetIntervalMs, refreshEveryMs);
  return { intervalMs, budgetIntervalMs, creditsPerDay: Math.round((86_400_000 / intervalMs) * ELFA_CREDITS_PER_ROUND * 10) / 10 };
}
