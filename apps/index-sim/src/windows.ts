// The `window` of the trending listings (docs/index-api.md): how far back mentions are counted.
// The 24 h figures are the listings' own; a shorter window counts its own posts, a longer one
// (the simulator holds about a day of posts) grows the day's counts by a slowly rising factor.

import { DAY_MS, HOUR_MS } from '../../../shared/durations.js';

const WINDOWS: Readonly<Record<string, number>> = { '1h': HOUR_MS, '4h': 4 * HOUR_MS, '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };

/** The window in ms: 24 h when absent, undefined when not one of 1h, 4h, 24h, 7d, 30d. */
export function windowParam(query: URLSearchParams): number | undefined {
  const raw = query.get('window');
  return raw === null ? DAY_MS : WINDOWS[raw];
}

/** How much larger a count over `windowMs` is than over a day, for windows longer than a day. */
export function beyondDay(windowMs: number): number {
  return windowMs <= DAY_MS ? 1 : 1 + Math.log2(windowMs / DAY_MS);
}

/** A day's count seen over `windowMs`: a share of it for a shorter window, more for a longer one. */
export function overWindow(dayCount: number, windowMs: number): number {
  return windowMs === DAY_MS ? dayCount : Math.round(dayCount * (windowMs < DAY_MS ? windowMs / DAY_MS : beyondDay(windowMs)));
}
