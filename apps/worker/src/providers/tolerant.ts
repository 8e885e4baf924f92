/**
 * Tolerant parsing of providers' payloads (docs/providers.md, "Parsing"): unknown fields are
 * stripped (z.object, never strict), numbers may come as strings, nullable counts count as 0.
 * Items are validated one by one; the caller decides what an empty result means.
 */
import { z } from 'zod';

/** A numeric string as its number, null/absent as `fallback`, anything else as it is (for the schema to judge). */
export const numeric = (fallback: number | null) => (value: unknown) => {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
};

/** A finite number, or a numeric string; null/absent become `fallback`. */
export const lenientNumber = (fallback = 0) => z.preprocess(numeric(fallback), z.number().finite());

/** A non-negative count, lenient as above. */
export const lenientCount = () => lenientNumber(0).pipe(z.number().nonnegative());

/** Each item parsed on its own; the invalid ones are dropped and counted. */
export function parseItems<T>(items: readonly unknown[], schema: z.ZodType<T>): { valid: T[]; dropped: number } {
  const valid: T[] = [];
  let dropped = 0;
  for (const item of items) {
    const parsed = schema.safeParse(item);
    if (parsed.success) valid.push(parsed.data);
    else dropped += 1;
  }
  return { valid, dropped };
}
