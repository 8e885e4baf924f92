/**
 * Turning history entries into the points a route returns. `30m` is every refresh as it was;
 * the other intervals are buckets aligned to UTC (epoch multiples of the interval, so `1d`
 * starts at midnight UTC), each point at its bucket's start.
 */
import { labelFor } from '../../../../shared/sentiment-label.js';
import type { HistoryEntry } from '../../../../shared/history/history-store.js';
import type { SentimentPoint, TrendingPoint } from '../../../../shared/market-types.js';
import type { Interval } from './market-queries.js';

/** Each interval's bucket size in ms (0: every refresh as it was). */
export const INTERVALS: Readonly<Record<Interval, number>> = { '30m': 0, '1h': 3_600_000, '4h': 4 * 3_600_000, '1d': 86_400_000 };

/** At most this many points per answer: the newest are kept. */
export const MAX_POINTS = 1000;

/** Consecutive runs of entries sharing a bucket (entries are oldest first). */
function groups<T extends { atMs: number }>(items: readonly T[], interval: Interval): { atMs: number; items: T[] }[] {
  const size = INTERVALS[interval];
  const out: { atMs: number; items: T[] }[] = [];
  for (const item of items) {
    const start = size === 0 ? item.atMs : Math.floor(item.atMs / size) * size;
    const last = out.at(-1);
    if (last && last.atMs === start) last.items.push(item);
    else out.push({ atMs: start, items: [item] });
  }
  return out.slice(-MAX_POINTS);
}

const num = (entry: HistoryEntry, field: string) => Number(entry.fields[field] ?? 0);

/** Counts summed within a bucket; the score is the mention-weighted mean (plain mean if nobody was mentioned). */
export function bucketSentiment(entries: readonly HistoryEntry[], interval: Interval): SentimentPoint[] {
  return groups(entries, interval).map(({ atMs, items }) => {
    let mentions = 0;
    let positive = 0;
    let neutral = 0;
    let negative = 0;
    let weighted = 0;
    let plain = 0;
    for (const entry of items) {
      const m = num(entry, 'm');
      mentions += m;
      positive += num(entry, 'p');
      neutral += num(entry, 'u');
      negative += num(entry, 'n');
      weighted += num(entry, 's') * m;
      plain += num(entry, 's');
    }
    const score = Math.round((mentions > 0 ? weighted / mentions : plain / items.length) * 10_000) / 10_000;
    const label = items.length === 1 ? (items[0]!.fields.l as SentimentPoint['label']) : labelFor(score);
    return { at: new Date(atMs).toISOString(), score, label, mentions, positive, neutral, negative };
  });
}

/**
 * One point per refresh (or bucket of refreshes) in `times`. Within a bucket: the best rank,
 * mentions summed over the refreshes where the token was listed, the last price change.
 */
export function bucketTrending(times: readonly HistoryEntry[], entries: readonly HistoryEntry[], interval: Interval): TrendingPoint[] {
  const listed = new Map(entries.map((entry) => [entry.atMs, entry]));
  return groups(times, interval).map(({ atMs, items }) => {
    let rank: number | null = null;
    let mentions: number | null = null;
    let smart: number | null = null;
    let price: number | null = null;
    for (const time of items) {
      const entry = listed.get(time.atMs);
      if (!entry) continue;
      rank = Math.min(rank ?? Infinity, num(entry, 'r'));
      mentions = (mentions ?? 0) + num(entry, 'm');
      smart = (smart ?? 0) + num(entry, 's');
      price = num(entry, 'p');
    }
    return { at: new Date(atMs).toISOString(), rank, mentions, smartMoneyMentions: smart, priceChange24h: price };
  });
}
