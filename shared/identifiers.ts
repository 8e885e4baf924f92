/**
 * The identifiers clients put in paths and queries, as zod schemas: the API validates requests
 * with them and /openapi.json documents them (apps/api/src/routes/docs/openapi.ts); a value a
 * schema refuses is answered 400.
 */
import { z } from 'zod';

/**
 * The two rules, written once for every schema that takes a username or a ticker (the reads'
 * here, the alert conditions'): a username is 1-15 of [A-Za-z0-9_] after an optional `@`,
 * compared lower-cased; a ticker 1-20 of [A-Za-z0-9] after an optional `$`, upper-cased.
 */
export const USERNAME = /^@?[A-Za-z0-9_]{1,15}$/;
export const TICKER = /^\$?[A-Za-z0-9]{1,20}$/;
export const normalizeUsername = (raw: string) => (raw.startsWith('@') ? raw.slice(1) : raw).toLowerCase();
export const normalizeTicker = (raw: string) => (raw.startsWith('$') ? raw.slice(1) : raw).toUpperCase();

/** A username without its optional leading `@`, lower-cased as the cache key (docs/decisions.md#d7). */
export const UsernameParam = z.string().max(16).regex(USERNAME).transform(normalizeUsername).meta({
  description: 'Social-network username without the leading @ (a leading @ is dropped); 1-15 of [A-Za-z0-9_], matched case-insensitively.',
});

/**
 * TickerParam's parse without zod's result objects, for the reads that parse a ticker on every
 * request (the fast path): the ticker, or undefined when the schema would refuse `raw`.
 */
export const parseTicker = (raw: unknown): string | undefined =>
  typeof raw === 'string' && TICKER.test(raw) ? normalizeTicker(raw) : undefined;

/** A ticker without its optional leading `$`, upper-cased as the index spells it (docs/decisions.md#d2). */
export const TickerParam = z
  .string()
  .max(21)
  .regex(TICKER)
  .transform(normalizeTicker)
  .meta({ description: 'Token ticker; an optional leading $ is dropped; 1-20 of [A-Za-z0-9], matched case-insensitively.' });

/** At most 15 digits: the largest value a positive integer query can take. */
const POSITIVE_INTEGER_MAX = 999_999_999_999_999;

/**
 * A positive whole number written in decimal digits (docs/decisions.md#d6). `abc`, `0`, `-1`, `2.5`, `1e3`, the
 * empty string and a repeated parameter are all invalid. The document shows the parsed value
 * (an integer, at least 1), which is what a client means; the digits-only rule is in the text.
 */
export const positiveIntegerQuery = (fallback: number) =>
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number)
    .pipe(z.number().min(1))
    .optional()
    .meta({
      override: { type: 'integer', format: 'int64', minimum: 1, maximum: POSITIVE_INTEGER_MAX, default: fallback, pattern: undefined },
    });
