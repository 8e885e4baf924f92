/**
 * Parsing of the identifiers clients put in paths. Pure functions: a `null` result means the
 * value is invalid and the caller answers 400.
 */

const USERNAME = /^[A-Za-z0-9_]{1,15}$/;
const TICKER = /^[A-Za-z0-9]{1,20}$/;

/** A username without its optional leading `@`, lower-cased as the cache key (D7). */
export function parseUsername(raw: string): string | null {
  const name = raw.startsWith('@') ? raw.slice(1) : raw;
  return USERNAME.test(name) ? name.toLowerCase() : null;
}

/** A ticker without its optional leading `$`, upper-cased as the index spells it (D2). */
export function parseTicker(raw: string): string | null {
  const ticker = raw.startsWith('$') ? raw.slice(1) : raw;
  return TICKER.test(ticker) ? ticker.toUpperCase() : null;
}

/**
 * A positive whole number written in decimal digits, or the default when absent (D6).
 * `abc`, `0`, `-1`, `2.5`, `1e3` and the empty string are all invalid.
 */
export function parsePositiveInteger(raw: string | string[] | undefined, fallback: number): number | null {
  if (raw === undefined) return fallback;
  if (Array.isArray(raw) || !/^\d{1,15}$/.test(raw)) return null;
  const value = Number(raw);
  return value >= 1 ? value : null;
}
