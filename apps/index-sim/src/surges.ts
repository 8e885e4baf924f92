// Surges: every few hours one lesser token becomes the talk of the tracked accounts for half a day,
// enough to carry it into the top of the trending list. A handful of "early" accounts name the
// next surge's token hours before it starts; everyone else joins once it runs. So the service's
// callers (who named a token before it broke out, docs/decisions.md#callers) have something true
// to find. Like the posts, surges depend only on (seed, time).

import type { Account } from './accounts.js';
import { hash, rngFor } from './random.js';
import { TOKENS, type TokenInfo } from './tokens.js';
import { HOUR_MS } from '../../../shared/durations.js';

/** A surge starts in each such period, at a seed-chosen offset. */
export const SURGE_EVERY_MS = 8 * HOUR_MS;
export const SURGE_LENGTH_MS = 10 * HOUR_MS;
/** How long before a surge an early account already names its token. */
export const EARLY_LEAD_MS = 8 * HOUR_MS;
/** The most a surge token takes of the posts, reached halfway through the surge. */
const SURGE_PEAK_SHARE = 0.45;
/** How many accounts are early, and how much more they post than their activity says. */
export const EARLY_ACCOUNTS = 6;
export const EARLY_ACTIVITY = 6;
/** How often an early account names the coming surge's token when one is coming. */
const EARLY_SHARE = 0.85;

/** Surges are of the lesser tokens: the majors are always near the top and never break out. */
const CANDIDATES: readonly TokenInfo[] = TOKENS.filter((token) => token.popularity <= 3);

export interface Surge {
  readonly token: TokenInfo;
  readonly startMs: number;
  readonly endMs: number;
}

function surgeOf(seed: number, period: number): Surge {
  const rng = rngFor(seed, 'surge', period);
  const token = CANDIDATES[Math.floor(rng() * CANDIDATES.length)]!;
  const startMs = period * SURGE_EVERY_MS + Math.floor(rng() * (SURGE_EVERY_MS / 2));
  return { token, startMs, endMs: startMs + SURGE_LENGTH_MS };
}

/** The surge running at `time`, if any (the latest started). */
export function runningSurge(seed: number, time: number): Surge | undefined {
  const period = Math.floor(time / SURGE_EVERY_MS);
  for (const candidate of [surgeOf(seed, period), surgeOf(seed, period - 1)])
    if (candidate.startMs <= time && time < candidate.endMs) return candidate;
  return undefined;
}

/** The surge starting within EARLY_LEAD_MS after `time`, if any. */
export function comingSurge(seed: number, time: number): Surge | undefined {
  const period = Math.floor(time / SURGE_EVERY_MS);
  for (const candidate of [surgeOf(seed, period), surgeOf(seed, period + 1), surgeOf(seed, period + 2)])
    if (time < candidate.startMs && candidate.startMs <= time + EARLY_LEAD_MS) return candidate;
  return undefined;
}

/** The share of the posts a running surge takes at `time`: rising to its peak halfway, then falling. */
export function surgeShare(surge: Surge, time: number): number {
  const progress = (time - surge.startMs) / (surge.endMs - surge.startMs);
  return SURGE_PEAK_SHARE * (1 - Math.abs(2 * progress - 1));
}

/** The early accounts of a seed: a few, chosen by the seed alone. */
export function earlyAccounts(seed: number, accounts: readonly Account[]): ReadonlySet<string> {
  const ranked = [...accounts].sort((a, b) => hash(seed, 'early', a.username) - hash(seed, 'early', b.username));
  return new Set(ranked.slice(0, EARLY_ACCOUNTS).map((account) => account.username));
}

/** The token a post names first when a surge decides it, else undefined (the author's usual choice). */
export function surgeToken(seed: number, author: string, early: ReadonlySet<string>, time: number, draw: number): TokenInfo | undefined {
  const coming = early.has(author) ? comingSurge(seed, time) : undefined;
  if (coming) return draw < EARLY_SHARE ? coming.token : undefined;
  const running = runningSurge(seed, time);
  return running && draw < surgeShare(running, time) ? running.token : undefined;
}
