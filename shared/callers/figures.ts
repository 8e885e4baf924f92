/**
 * The callers' figures as of an instant (docs/decisions.md#callers): pure functions of the recorded
 * calls and breakouts, so the live answer and `?at=` are the same computation at another instant.
 */
import { type BreakoutRecord, type CallRecord, type Subject } from './records.js';
import { DAY_MS, MINUTE_MS } from '../durations.js';

export const CALLS_WINDOWS = ['7d', '30d'] as const;
export type CallsWindow = (typeof CALLS_WINDOWS)[number];
export const WINDOW_MS: Readonly<Record<CallsWindow, number>> = { '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };
export const LEADERBOARD_SORTS = ['hitRate', 'lead', 'calls'] as const;
export type LeaderboardSort = (typeof LEADERBOARD_SORTS)[number];
/** The accounts a leaderboard lists at most, and the first callers a breakout lists. */
export const LEADERBOARD_MAX = 100;
export const FIRST_CALLERS_MAX = 10;

const keyOf = (subject: Subject, id: string) => `${subject}:${id}`;

/** What the service knew at an instant: the calls and breakouts recorded by then, indexed. */
export interface Known {
  atMs: number;
  horizonMs: number;
  calls: readonly CallRecord[];
  /** Each subject's breakout times, ascending. */
  breakoutTimes: ReadonlyMap<string, readonly number[]>;
  breakouts: readonly BreakoutRecord[];
}

export function knownAt(calls: readonly CallRecord[], breakouts: readonly BreakoutRecord[], atMs: number, horizonMs: number): Known {
  const seenCalls = calls.filter((call) => call.seenMs <= atMs);
  const seenBreakouts = breakouts.filter((breakout) => breakout.atMs <= atMs).sort((a, b) => a.atMs - b.atMs);
  const breakoutTimes = new Map<string, number[]>();
  for (const breakout of seenBreakouts) {
    const key = keyOf(breakout.subject, breakout.id);
    const times = breakoutTimes.get(key);
    if (times) times.push(breakout.atMs);
    else breakoutTimes.set(key, [breakout.atMs]);
  }
  return { atMs, horizonMs, calls: seenCalls, breakoutTimes, breakouts: seenBreakouts };
}

export type CallStatus = 'hit' | 'pending' | 'miss';
export interface Resolution {
  status: CallStatus;
  /** The breakout that makes it a hit. */
  breakoutMs?: number;
}

/** A call's fate as of `known.atMs`: its first breakout after it within the horizon, else pending until the horizon passes. */
export function resolveCall(known: Known, call: CallRecord): Resolution {
  const end = Math.min(call.callMs + known.horizonMs, known.atMs);
  const breakoutMs = known.breakoutTimes.get(keyOf(call.subject, call.id))?.find((at) => at > call.callMs && at <= end);
  if (breakoutMs !== undefined) return { status: 'hit', breakoutMs };
  return { status: known.atMs < call.callMs + known.horizonMs ? 'pending' : 'miss' };
}

export interface AccountFigures {
  username: string;
  followers: number;
  calls: number;
  hits: number;
  pending: number;
  misses: number;
  /** hits / (hits + misses), 4 decimals; null while no call is decided. */
  hitRate: number | null;
  /** The median lead of its hits, in minutes; null without a hit. */
  medianLeadMinutes: number | null;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = values.sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The figures of one account's calls (made within the window). */
function figuresOf(known: Known, calls: readonly CallRecord[]): AccountFigures {
  const counts = { hit: 0, pending: 0, miss: 0 };
  const leads: number[] = [];
  for (const call of calls) {
    const { status, breakoutMs } = resolveCall(known, call);
    counts[status] += 1;
    if (breakoutMs !== undefined) leads.push((breakoutMs - call.callMs) / MINUTE_MS);
  }
  const latest = calls.reduce((a, b) => (b.callMs > a.callMs ? b : a), calls[0]!);
  const decided = counts.hit + counts.miss;
  const lead = median(leads);
  return {
    username: latest.username,
    followers: latest.followers,
    calls: calls.length,
    hits: counts.hit,
    pending: counts.pending,
    misses: counts.miss,
    hitRate: decided === 0 ? null : Math.round((counts.hit / decided) * 10_000) / 10_000,
    medianLeadMinutes: lead === null ? null : Math.round(lead),
  };
}

/** Each Known's calls per account and window, grouped once: a stats answer per account reads one group. */
const grouped = new WeakMap<Known, Map<number, Map<string, CallRecord[]>>>();

/** The calls made within the window ending at `known.atMs`, per account. */
function callsByAccount(known: Known, windowMs: number): Map<string, CallRecord[]> {
  let byWindow = grouped.get(known);
  if (!byWindow) grouped.set(known, (byWindow = new Map<number, Map<string, CallRecord[]>>()));
  let byAccount = byWindow.get(windowMs);
  if (!byAccount) byWindow.set(windowMs, (byAccount = groupByAccount(known, windowMs)));
  return byAccount;
}

function groupByAccount(known: Known, windowMs: number): Map<string, CallRecord[]> {
  const since = known.atMs - windowMs;
  const byAccount = new Map<string, CallRecord[]>();
  for (const call of known.calls) {
    if (call.callMs <= since || call.callMs > known.atMs) continue;
    const list = byAccount.get(call.account);
    if (list) list.push(call);
    else byAccount.set(call.account, [call]);
  }
  return byAccount;
}

/** One account's figures over the window; zero calls when it made none. */
export function accountFigures(known: Known, username: string, windowMs: number): AccountFigures {
  const calls = callsByAccount(known, windowMs).get(username.toLowerCase());
  if (!calls) return { username, followers: 0, calls: 0, hits: 0, pending: 0, misses: 0, hitRate: null, medianLeadMinutes: null };
  return figuresOf(known, calls);
}

const SORTS: Readonly<Record<LeaderboardSort, (a: AccountFigures, b: AccountFigures) => number>> = {
  hitRate: (a, b) => (b.hitRate ?? -1) - (a.hitRate ?? -1) || b.hits - a.hits || b.calls - a.calls,
  lead: (a, b) => (b.medianLeadMinutes ?? -1) - (a.medianLeadMinutes ?? -1) || b.hits - a.hits,
  calls: (a, b) => b.calls - a.calls || b.hits - a.hits,
};

export function leaderboard(known: Known, windowMs: number, sort: LeaderboardSort, minCalls: number): AccountFigures[] {
  const rows = [...callsByAccount(known, windowMs).values()]
    .filter((calls) => calls.length >= minCalls)
    .map((calls) => figuresOf(known, calls));
  return rows.sort((a, b) => SORTS[sort](a, b) || a.username.localeCompare(b.username)).slice(0, LEADERBOARD_MAX);
}

export interface FirstCaller {
  username: string;
  calledAt: string;
  leadMinutes: number;
  followers: number;
  post: { id: string; text: string };
}

export interface Breakout {
  at: string;
  subject: Subject;
  /** An address's chain; absent for a ticker. */
  chain?: string;
  /** How many calls it made hits. */
  callers: number;
  firstCallers: FirstCaller[];
}

/** The breakouts of `id` within the window, newest first, each with the calls it made hits, earliest first. */
export function breakoutsOf(known: Known, subject: Subject, id: string, windowMs: number): Breakout[] {
  const since = known.atMs - windowMs;
  const calls = known.calls.filter((call) => call.subject === subject && call.id === id);
  return known.breakouts
    .filter((breakout) => breakout.subject === subject && breakout.id === id && breakout.atMs > since)
    .map((breakout) => {
      const made = calls
        .filter((call) => resolveCall(known, call).breakoutMs === breakout.atMs)
        .sort((a, b) => a.callMs - b.callMs || a.account.localeCompare(b.account));
      return {
        at: new Date(breakout.atMs).toISOString(),
        subject,
        ...(breakout.chain ? { chain: breakout.chain } : {}),
        callers: made.length,
        firstCallers: made.slice(0, FIRST_CALLERS_MAX).map((call) => ({
          username: call.username,
          calledAt: new Date(call.callMs).toISOString(),
          leadMinutes: Math.round((breakout.atMs - call.callMs) / MINUTE_MS),
          followers: call.followers,
          post: { id: call.postId, text: call.text },
        })),
      };
    })
    .reverse();
}
