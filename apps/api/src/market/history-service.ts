/**
 * Reads of history (docs/decisions.md#d11): time series per token and snapshots as of an instant, from the
 * Redis Streams the worker writes with each refresh. A history answer changes only when a
 * refresh lands, so each is prepared once (bytes, ETag) and kept in memory keyed by the current
 * snapshot's version: repeated reads cost what a cached snapshot read costs.
 */
import type { Redis } from 'ioredis';
import { NotFoundError } from '../../../../shared/errors.js';
import { readAtOrBefore, readRange } from '../../../../shared/history/history-store.js';
import { historyKeys } from '../../../../shared/keyspace.js';
import type { HistoryQuery } from './market-queries.js';
import { SNAPSHOT_KINDS, type ListKind } from '../../../../shared/snapshot-kinds.js';
import { boundedCache } from '../cache/bounded-cache.js';
import { Representation } from '../http/representation.js';
import { secondsLeft, type SnapshotCache } from './snapshot-cache.js';
import { bucketSentiment, bucketTrending } from './history-buckets.js';

export type { HistoryQuery };

export interface HistoryAnswer {
  representation: Representation;
  maxAgeSeconds: number;
}

const DEFAULT_RANGE_MS = 24 * 3_600_000;
/** Prepared answers kept per process (a few KB each for 30 days at 1h). */
const MAX_PREPARED = 1000;
/** Past snapshots kept prepared (the `?at=` of a few dashboards' time sliders). */
const MAX_PAST_SNAPSHOTS = 64;

export const NO_SNAPSHOT = 'No snapshot at that time';

export class HistoryService {
  private readonly prepared = boundedCache<string, Representation>({ max: MAX_PREPARED });
  private readonly past = boundedCache<string, Representation>({ max: MAX_PAST_SNAPSHOTS });

  constructor(
    private readonly redis: Redis,
    private readonly snapshots: SnapshotCache,
    /** HISTORY_DAYS in ms; 0 when history is off. */
    private readonly retentionMs: number,
  ) {}

  /**
   * A history answer already prepared for the current refresh, synchronously, or undefined:
   * the fast path serves these (a repeated chart read costs what a cached snapshot read does).
   */
  peek(kind: HistoryKind, token: string, query: HistoryQuery): HistoryAnswer | undefined {
    const snapshot = this.snapshots.peek(SNAPSHOT_OF[kind]);
    const held = snapshot && this.prepared.get(preparedKey(kind, token, snapshot.version, query));
    return held && { representation: held, maxAgeSeconds: secondsLeft(snapshot.expiresAt) };
  }

  /** `GET /api/market/sentiment/:token/history`. */
  async sentiment(token: string, query: HistoryQuery): Promise<HistoryAnswer> {
    const snapshot = await this.snapshots.get('sentiment');
    return this.answer(preparedKey('sentiment', token, snapshot.version, query), query, snapshot, async (fromMs, toMs) => {
      const key = historyKeys.sentiment(token);
      const entries = await readRange(this.redis, key, fromMs, toMs);
      if (entries.length === 0) await this.assertExists(key);
      return { token, interval: query.interval, points: bucketSentiment(entries, query.interval), cachedAt: snapshot.cachedAt };
    });
  }

  /** `GET /api/market/tokens/:token/history`: rank null at refreshes where the token was not listed. */
  async token(token: string, query: HistoryQuery): Promise<HistoryAnswer> {
    const snapshot = await this.snapshots.get('trending');
    return this.answer(preparedKey('token', token, snapshot.version, query), query, snapshot, async (fromMs, toMs) => {
      const key = historyKeys.token(token);
      const [entries, times] = await Promise.all([
        readRange(this.redis, key, fromMs, toMs),
        readRange(this.redis, historyKeys.trendingTimes(), fromMs, toMs),
      ]);
      if (entries.length === 0) await this.assertExists(key);
      return { token, interval: query.interval, points: bucketTrending(times, entries, query.interval), cachedAt: snapshot.cachedAt };
    });
  }

  /** `GET /api/market/<list kind>?at=`: the exact body that was current at `atMs`. */
  async snapshotAt(name: ListKind, atMs: number): Promise<HistoryAnswer> {
    const key = historyKeys.events(SNAPSHOT_KINDS[name].events);
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
  ): Promise<HistoryAnswer> {
    const maxAgeSeconds = secondsLeft(snapshot.expiresAt);
    const held = this.prepared.get(cacheKey);
    if (held) return { representation: held, maxAgeSeconds };
    const toMs = query.toMs ?? Date.parse(snapshot.cachedAt);
    const fromMs = Math.max(query.fromMs ?? toMs - DEFAULT_RANGE_MS, Date.now() - this.retentionMs);
    const representation = Representation.json(await build(fromMs, toMs));
    this.prepared.set(cacheKey, representation);
    return { representation, maxAgeSeconds };
  }

  private async assertExists(key: string): Promise<void> {
    if (this.retentionMs <= 0 || (await this.redis.exists(key)) === 0) throw new NotFoundError('Token not found in index');
  }
}

/** The series a history route reads, and the snapshot whose version says when its answers go stale. */
export type HistoryKind = 'sentiment' | 'token';
const SNAPSHOT_OF = { sentiment: 'sentiment', token: 'trending' } as const;

function preparedKey(kind: HistoryKind, token: string, version: string, query: HistoryQuery): string {
  return `${kind}|${token}|${version}|${query.interval}|${query.fromMs ?? ''}|${query.toMs ?? ''}`;
}
