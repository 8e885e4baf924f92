/**
 * Mindshare (docs/decisions.md#d20): each token's share of the tracked accounts' token mentions
 * in a window, from the hourly and daily buckets the worker counts as it sees posts.
 */
import { z } from 'zod';
import { DAY_MS, HOUR_MS } from './durations.js';
import { within } from './market-types.js';

export const MINDSHARE_WINDOWS = ['1h', '24h', '7d', '30d'] as const;
export type MindshareWindow = (typeof MINDSHARE_WINDOWS)[number];
/** A bucket's length: hours for the short windows, days for the long ones (hourly buckets live 48 h). */
export type BucketUnit = 'hour' | 'day';
export const UNIT_MS: Readonly<Record<BucketUnit, number>> = { hour: HOUR_MS, day: DAY_MS };
/** Each window as buckets: how many, of which unit. */
export const WINDOW_BUCKETS: Readonly<Record<MindshareWindow, { unit: BucketUnit; count: number }>> = {
  '1h': { unit: 'hour', count: 1 },
  '24h': { unit: 'hour', count: 24 },
  '7d': { unit: 'day', count: 7 },
  '30d': { unit: 'day', count: 30 },
};
/** How long an hourly bucket is read: the longest hourly window and the window before it. */
export const HOURLY_KEPT_MS = 2 * 24 * HOUR_MS;
/** The tokens a window's list keeps, most share first. */
export const MINDSHARE_MAX_TOKENS = 100;

/** One bucket's counts as stored (the bucket hash, parsed). */
export interface Bucket {
  /** Every token mention of the bucket: the denominator's part. */
  total: number;
  tokens: Map<string, { mentions: number; engagement: number; sentiment: number; authors: Set<string> }>;
}

/** The bucket hash's fields, parsed: `t`, `m:<T>`, `e:<T>`, `s:<T>`, and `a:<T>`, its authors each followed by a newline. */
export function parseBucket(fields: Record<string, string>): Bucket {
  const bucket: Bucket = { total: Number(fields.t ?? 0), tokens: new Map() };
  for (const [field, value] of Object.entries(fields)) {
    const kind = field.slice(0, 2);
    const rest = field.slice(2);
    if (kind === 'm:') tokenCounts(bucket, rest).mentions = Number(value);
    else if (kind === 'e:') tokenCounts(bucket, rest).engagement = Number(value);
    else if (kind === 's:') tokenCounts(bucket, rest).sentiment = Number(value);
    else if (kind === 'a:') for (const author of value.split('\n')) if (author !== '') tokenCounts(bucket, rest).authors.add(author);
  }
  return bucket;
}

/** A token's counts in `bucket`, added at zero when absent. */
function tokenCounts(bucket: Bucket, token: string) {
  let entry = bucket.tokens.get(token);
  if (!entry) bucket.tokens.set(token, (entry = { mentions: 0, engagement: 0, sentiment: 0, authors: new Set<string>() }));
  return entry;
}

export const MindshareItemSchema = z
  .object({
    token: z.string().max(20).meta({ description: 'The ticker, upper case.' }),
    share: within(0, 1, 'Its mentions over all token mentions of the tracked accounts in the window, 0 to 1 (4 decimals).'),
    mentions: z.int().nonnegative().meta({ description: 'Posts of tracked accounts in the window that mention it, each post once.' }),
    authors: z.int().nonnegative().meta({ description: 'Distinct tracked accounts among those posts.' }),
    engagement: z.number().nonnegative().meta({ description: 'The sum of those posts’ engagementScore.' }),
    shareChange: z.number().nullable().meta({
      description: 'share minus its share in the window before (same length); null when that window held no mention within retention.',
    }),
    sentiment: within(-1, 1, 'The mean polarity of those posts, -1 to 1 (4 decimals).'),
  })
  .meta({ id: 'MindshareItem', description: 'A token’s share of the tracked accounts’ attention in a window.' });
export type MindshareItem = z.infer<typeof MindshareItemSchema>;

/** Rounds to 4 decimals, never -0. */
const round4 = (value: number) => Math.round(value * 10_000) / 10_000 || 0;

/** The starts of `count` buckets of `unit`, oldest first, ending with the one holding `nowMs` (or `endOffset` buckets before it). */
export function bucketStarts(unit: BucketUnit, nowMs: number, count: number, endOffset = 0): number[] {
  const size = UNIT_MS[unit];
  const last = Math.floor(nowMs / size) * size - endOffset * size;
  return Array.from({ length: count }, (_, index) => last - (count - 1 - index) * size);
}

/** A window's buckets (or, with `before`, those of the window just before it). */
export function windowStarts(window: MindshareWindow, nowMs: number, before = false): { unit: BucketUnit; starts: number[] } {
  const { unit, count } = WINDOW_BUCKETS[window];
  return { unit, starts: bucketStarts(unit, nowMs, count, before ? count : 0) };
}

/** The buckets read, by unit and start. */
export type Buckets = Readonly<Record<BucketUnit, ReadonlyMap<number, Bucket>>>;

/** The buckets' counts summed. */
function tally(buckets: Buckets, { unit, starts }: { unit: BucketUnit; starts: readonly number[] }): Bucket {
  const result: Bucket = { total: 0, tokens: new Map() };
  for (const start of starts) {
    const bucket = buckets[unit].get(start);
    if (!bucket) continue;
    result.total += bucket.total;
    for (const [token, counts] of bucket.tokens) {
      const entry = tokenCounts(result, token);
      entry.mentions += counts.mentions;
      entry.engagement += counts.engagement;
      entry.sentiment += counts.sentiment;
      for (const author of counts.authors) entry.authors.add(author);
    }
  }
  return result;
}

/** A window's ranked list: share, then mentions, then ticker; at most MINDSHARE_MAX_TOKENS. */
export function mindshareList(buckets: Buckets, window: MindshareWindow, nowMs: number): MindshareItem[] {
  const current = tally(buckets, windowStarts(window, nowMs));
  const previous = tally(buckets, windowStarts(window, nowMs, true));
  if (current.total === 0) return [];
  const items = [...current.tokens].map(([token, counts]): MindshareItem => {
    const share = counts.mentions / current.total;
    const before = previous.tokens.get(token)?.mentions ?? 0;
    return {
      token,
      share: round4(share),
      mentions: counts.mentions,
      authors: counts.authors.size,
      engagement: round4(counts.engagement),
      shareChange: previous.total === 0 ? null : round4(share - before / previous.total),
      sentiment: counts.mentions === 0 ? 0 : round4(counts.sentiment / counts.mentions),
    };
  });
  return items.sort((a, b) => b.mentions - a.mentions || a.token.localeCompare(b.token)).slice(0, MINDSHARE_MAX_TOKENS);
}

const cachedAt = z.iso.datetime().meta({ description: 'The news refresh the counts are as of (ISO timestamp).' });
const windowEnum = z.enum(MINDSHARE_WINDOWS).meta({ description: 'The window asked for.' });

export const MindshareListSchema = z
  .object({
    window: windowEnum,
    data: z.array(MindshareItemSchema).max(MINDSHARE_MAX_TOKENS).meta({ description: 'Most share first; at most 100 tokens.' }),
    cachedAt,
  })
  .meta({ id: 'MindshareList', description: 'Tokens ranked by their share of the tracked accounts’ token mentions in a window.' });

export const MINDSHARE_INTERVALS = ['1h', '4h', '1d'] as const;
export type MindshareInterval = (typeof MINDSHARE_INTERVALS)[number];
export const INTERVAL_HOURS: Readonly<Record<MindshareInterval, number>> = { '1h': 1, '4h': 4, '1d': 24 };
/** The intervals a window's buckets can answer: any for the hourly windows, `1d` for the daily ones. */
export const windowIntervals = (window: MindshareWindow): readonly MindshareInterval[] =>
  MINDSHARE_INTERVALS.filter((interval) => INTERVAL_HOURS[interval] * HOUR_MS >= UNIT_MS[WINDOW_BUCKETS[window].unit]);

export const MindsharePointSchema = z
  .object({
    at: z.iso.datetime().meta({ description: 'The start of the bucket (aligned to UTC).' }),
    share: within(0, 1, 'The token’s mentions over all token mentions in the bucket; 0 when there were none.'),
    mentions: z.int().nonnegative().meta({ description: 'Posts of tracked accounts in the bucket that mention the token.' }),
  })
  .meta({ id: 'MindsharePoint' });

export const TokenMindshareSchema = z
  .object({
    token: z.string().max(20).meta({ description: 'The ticker asked for, upper case, without its $.' }),
    window: windowEnum,
    interval: z.enum(MINDSHARE_INTERVALS).meta({ description: 'The interval asked for.' }),
    points: z.array(MindsharePointSchema).max(720).meta({ description: 'Oldest first, one per bucket of the window.' }),
    cachedAt,
  })
  .meta({ id: 'TokenMindshare', description: 'A token’s share of the tracked accounts’ attention over time.' });

/** A token's points over the window's buckets, summed per interval (aligned to UTC). */
export function mindsharePoints(
  buckets: readonly { startMs: number; total: number; mentions: number }[],
  interval: MindshareInterval,
): z.infer<typeof MindsharePointSchema>[] {
  const size = INTERVAL_HOURS[interval] * HOUR_MS;
  const byBucket = new Map<number, { total: number; mentions: number }>();
  for (const { startMs, total, mentions } of buckets) {
    const at = Math.floor(startMs / size) * size;
    const bucket = byBucket.get(at) ?? { total: 0, mentions: 0 };
    bucket.total += total;
    bucket.mentions += mentions;
    byBucket.set(at, bucket);
  }
  return [...byBucket]
    .sort(([a], [b]) => a - b)
    .map(([at, { total, mentions }]) => ({ at: new Date(at).toISOString(), share: total === 0 ? 0 : round4(mentions / total), mentions }));
}
