/**
 * History (docs/decisions.md#d11): series per token and snapshots as of an instant, from the Redis
 * Streams the worker writes. An answer changes only when a refresh lands, so each is prepared once,
 * keyed by the snapshot's version. Answers to a client's own `from`/`to` are kept apart, so a
 * stream of distinct ranges evicts only its own kind.
 */
import type { Redis } from 'ioredis';
import { NotFoundError } from '../../../../shared/errors.js';
import { readAtOrBefore, readNewestInRange, readRange, type HistoryEntry } from '../../../../shared/history/history-store.js';
import { historyKeys } from '../../../../shared/snapshot-keys.js';
import { SERIES_OWNER, type ListKind, type SeriesName } from '../../../../shared/snapshot-kinds.js';
import type { HistoryQuery, Interval } from './market-queries.js';
import { boundedCache } from '../cache/bounded-cache.js';
import { Representation, type ReadAnswer } from '../http/representation.js';
import { secondsLeft, type SnapshotCache } from './snapshot-cache.js';
import { bucketSentiment, bucketTrending, MAX_POINTS } from './history-buckets.js';

const DEFAULT_RANGE_MS = 24 * 3_600_000;
/** Prepared answers of the default range kept per process (a few KB each for 30 days at 1h). */
const MAX_PREPARED = 1000;
/** Prepared answers of a range the client chose (`from`, `to`), kept apart. */
const MAX_PREPARED_RANGES = 200;
/** Past snapshots kept prepared (the `?at=` of a few dashboards' time sliders). */
const MAX_PAST_SNAPSHOTS = 64;

const NO_SNAPSHOT = 'No snapshot at that time';

export class HistoryService {
  private readonly prepared = boundedCache<string, Representation>({ max: MAX_PREPARED });
  private readonly ranges = boundedCache<string, Representation>({ max: MAX_PREPARED_RANGES });
  private readonly past = boundedCache<string, Representation>({ max: MAX_PAST_SNAPSHOTS });

  constructor(
    private readonly redis: Redis,
    private readonly snapshots: SnapshotCache,
    /** HISTORY_DAYS in ms; 0 when history is off. */
    private readonly retentionMs: number,
  ) {}

  /** An answer already prepared for the current refresh, or undefined (the fast path's). */
  peek(series: HistorySeries, token: string, query: HistoryQuery): ReadAnswer | undefined {
    const snapshot = this.snapshots.peek(SERIES_OWNER[series]);
    const held = snapshot && this.cacheFor(query).get(preparedKey(series, token, snapshot.version, query));
    return held && { representation: held, maxAgeSeconds: secondsLeft(snapshot.expiresAt) };
  }

  async series(series: HistorySeries, token: string, query: HistoryQuery): Promise<ReadAnswer> {
    const snapshot = await this.snapshots.get(SERIES_OWNER[series]);
    const { withRefreshTimes, points } = HISTORY_POINTS[series];
    return this.answer(preparedKey(series, token, snapshot.version, query), query, snapshot, async (fromMs, toMs) => {
      const key = historyKeys.series(series, token);
      const read = (name: string) =>
        query.interval === '30m'
          ? readNewestInRange(this.redis, name, fromMs, toMs, MAX_POINTS)
          : readRange(this.redis, name, fromMs, toMs);
      const [entries, times] = await Promise.all([read(key), withRefreshTimes ? read(historyKeys.trendingTimes()) : []]);
      if (entries.length === 0) await this.assertExists(key);
      return { token, interval: query.interval, points: points(entries, times, query.interval), cachedAt: snapshot.cachedAt };
    });
  }

  /** `GET /api/market/<list kind>?at=`: the exact body that was current at `atMs`. */
  async snapshotAt(name: ListKind | 'stories', atMs: number): Promise<ReadAnswer> {
    const key = historyKeys.events(name);
    const entry = this.retentionMs > 0 && atMs >= 0 ? await readAtOrBefore(this.redis, key, atMs) : null;
    const body = entry?.fields.b;
    if (!entry || body === undefined || entry.atMs < Date.now() - this.retentionMs) throw new NotFoundError(NO_SNAPSHOT);
    const cacheKey = `${name}|${entry.id}`;
    let representation = this.past.get(cacheKey);
    if (!representation) {
      representation = new Representation(Buffer.from(body));
      this.past.set(cacheKey, representation);
    }
    const current = this.snapshots.peek(name);
    return { representation, maxAgeSeconds: current ? secondsLeft(current.expiresAt) : 0 };
  }

  private async answer(
    cacheKey: string,
    query: HistoryQuery,
    snapshot: { cachedAt: string; expiresAt: number },
    build: (fromMs: number, toMs: number) => Promise<unknown>,
  ): Promise<ReadAnswer> {
    const maxAgeSeconds = secondsLeft(snapshot.expiresAt);
    const cache = this.cacheFor(query);
    const held = cache.get(cacheKey);
    if (held) return { representation: held, maxAgeSeconds };
    const toMs = query.toMs ?? Date.parse(snapshot.cachedAt);
    const fromMs = Math.max(query.fromMs ?? toMs - DEFAULT_RANGE_MS, Date.now() - this.retentionMs);
    const representation = Representation.json(await build(fromMs, toMs));
    cache.set(cacheKey, representation);
    return { representation, maxAgeSeconds };
  }

  private cacheFor(query: HistoryQuery) {
    return query.fromMs === undefined && query.toMs === undefined ? this.prepared : this.ranges;
  }

  private async assertExists(key: string): Promise<void> {
    if (this.retentionMs <= 0 || (await this.redis.exists(key)) === 0) throw new NotFoundError('Token not found in index');
  }
}

/** How a series' points are built: a token's trending figures also need the refresh times (null where it was out of the list). */
const HISTORY_POINTS = {
  sentiment: { withRefreshTimes: false, points: (entries, _times, interval) => bucketSentiment(entries, interval) },
  token: { withRefreshTimes: true, points: (entries, times, interval) => bucketTrending(times, entries, interval) },
} satisfies Partial<
  Record<
    SeriesName,
    { withRefreshTimes: boolean; points: (entries: HistoryEntry[], times: HistoryEntry[], interval: Interval) => unknown[] }
  >
>;
export type HistorySeries = keyof typeof HISTORY_POINTS;

function preparedKey(series: HistorySeries, token: string, version: string, query: HistoryQuery): string {
  return `${series}|${token}|${version}|${query.interval}|${query.fromMs ?? ''}|${query.toMs ?? ''}`;
}
