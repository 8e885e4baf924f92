/**
 * What each refresh appends to history (docs/decisions.md#d11), as pure functions of the refresh's data, so
 * the worker's jobs, the tests and the benchmark's seeding build exactly the same entries.
 * Field names are one letter: a stream stores them once per listpack node, but short names
 * still keep every entry's reply small.
 */
import type { NewsItem, SentimentRecord, TrendingToken } from '../market-types.js';
import { historyKeys } from '../snapshot-keys.js';
import { listOf, seriesFields, type ListItem, type ListKind, type SeriesName, type SeriesValues } from '../snapshot-kinds.js';
import type { SeriesEntry } from './history-store.js';

/** A point of a series (the table has checked its fields), as the stream entry that stores it: its fields in the table's order. */
interface Point {
  series: SeriesName;
  id?: string;
  values: Readonly<Record<string, string | number>>;
}
function pointEntry({ series, id, values }: Point): SeriesEntry {
  return { key: historyKeys.series(series, id), fields: seriesFields(series).flatMap((field) => [field, values[field] ?? '']) };
}

/** What a list refresh appends to history: its body (the `?at=` reads and the stream events), then its items' points. */
export function listEntries<N extends ListKind>(name: N, body: string, data: readonly ListItem<N>[]): SeriesEntry[] {
  const points = listOf(name).items(data) as Point[];
  return [{ key: historyKeys.events(name), fields: ['b', body] }, ...points.map(pointEntry)];
}

/** The trending list's history (kept by name for callers outside the worker: the bench seeds history with it). */
export function trendingEntries(body: string, data: readonly TrendingToken[]): SeriesEntry[] {
  return listEntries('trending', body, data);
}

/** The fields of a sentiment record that make it "changed" (cachedAt changes every time). */
const COMPARED = ['score', 'label', 'mentions', 'positive', 'neutral', 'negative', 'confidence'] as const;
function sameRecord(a: SentimentRecord, b: SentimentRecord | undefined): boolean {
  return (
    b !== undefined &&
    COMPARED.every((field) => a[field] === b[field]) &&
    // A record stored before `sample` existed (undefined) counts as changed.
    a.sample.authors === (b.sample as SentimentRecord['sample'] | undefined)?.authors
  );
}

export interface NewsRefresh {
  cachedAt: string;
  /** The new window, newest first. */
  posts: readonly NewsItem[];
  sentiment: Readonly<Record<string, SentimentRecord>>;
  /** The previous refresh's post ids; undefined on the first refresh (no event carries the whole window). */
  previousIds: ReadonlySet<string> | undefined;
  /** The previous refresh's records; undefined on the first refresh (every record counts as changed). */
  previousSentiment: Readonly<Record<string, SentimentRecord>> | undefined;
}

/**
 * The `news` event (posts new since the previous refresh), the `sentiment` event (records that
 * changed, tokens newly mentioned included) and each token's record. The news event's stream
 * comes first: it is the one that decides whether this refresh is newer than the last.
 */
export function newsEntries(refresh: NewsRefresh): SeriesEntry[] {
  const { cachedAt, posts, sentiment, previousIds, previousSentiment } = refresh;
  const fresh = previousIds ? posts.filter((post) => !previousIds.has(post.id)) : [];
  const records = Object.values(sentiment);
  const changed = records.filter((record) => !sameRecord(record, previousSentiment?.[record.token]));
  return [
    { key: historyKeys.events('news'), fields: ['b', JSON.stringify({ data: fresh, cachedAt })] },
    { key: historyKeys.events('sentiment'), fields: ['b', JSON.stringify({ data: changed, cachedAt })] },
    ...records.map((r) =>
      pointEntry({
        series: 'sentiment',
        id: r.token,
        values: { s: r.score, l: r.label, m: r.mentions, p: r.positive, u: r.neutral, n: r.negative } satisfies SeriesValues<'sentiment'>,
      }),
    ),
  ];
}
