/**
 * The API's in-memory copy of the shared snapshots, prepared for serving (bytes, ETags, pages).
 * Derived, bounded and disposable: Redis stays the truth. A new snapshot is picked up when the
 * worker announces it on pub/sub, and every snapshot is re-checked against Redis at most once a
 * second otherwise (a message lost during a reconnect costs at most a second of staleness).
 */
import type { Redis } from 'ioredis';
import { SNAPSHOT_CHANNEL, SNAPSHOT_TTL_SECONDS, SNAPSHOTS, type SnapshotName } from '../../../../shared/keyspace.js';
import type { Logger } from '../../../../shared/logger.js';
import type { NewsItem, SentimentRecord, Snapshot } from '../../../../shared/market-types.js';
import { readSnapshot, readSnapshotVersions } from '../../../../shared/snapshot-store.js';
import { UnavailableError } from '../../../../shared/errors.js';
import { Representation } from '../http/representation.js';
import { NewsPages } from './news-pages.js';

type WholeView = { kind: 'whole'; representation: Representation };
type NewsView = { kind: 'news'; pages: NewsPages };
type SentimentView = { kind: 'sentiment'; byToken: ReadonlyMap<string, Representation> };
type View = WholeView | NewsView | SentimentView;

/** What each snapshot is prepared as. */
interface ViewOf {
  trending: WholeView;
  'trending-cas': WholeView;
  news: NewsView;
  sentiment: SentimentView;
}

export interface CachedSnapshot<V extends View = View> {
  version: string;
  cachedAt: string;
  /** When the entry's 30-minute lifetime ends (ms since epoch); Cache-Control counts down to it. */
  expiresAt: number;
  view: V;
}

export interface SnapshotCacheOptions {
  /** Fast-failing client for reads. */
  redis: Redis;
  /** A connection of its own for SUBSCRIBE. */
  subscriber: Redis;
  logger: Logger;
  /** Asks the worker for an immediate, deduplicated refresh; with `wait`, waits for it boundedly (docs/decisions.md#d8). */
  refreshAbsent: (name: SnapshotName, wait: boolean) => Promise<void>;
  /** How long a snapshot is fresh (REFRESH_INTERVAL): `Cache-Control: max-age` counts down to it. Default 30 minutes. */
  refreshIntervalMs?: number;
  /** How stale a copy may get without a pub/sub message. Default 1000 ms. */
  recheckMs?: number;
}

export class SnapshotCache {
  private readonly entries = new Map<SnapshotName, CachedSnapshot>();
  private readonly checkedAt = new Map<SnapshotName, number>();
  private readonly inflight = new Map<SnapshotName, Promise<CachedSnapshot | null>>();
  private readonly recheckMs: number;

  constructor(private readonly options: SnapshotCacheOptions) {
    this.recheckMs = options.recheckMs ?? 1000;
  }

  async start(): Promise<void> {
    this.options.subscriber.on('message', (channel: string, name: string) => {
      if (channel === SNAPSHOT_CHANNEL && (SNAPSHOTS as readonly string[]).includes(name)) {
        this.revalidate(name as SnapshotName).catch(() => {});
      }
    });
    await this.options.subscriber.subscribe(SNAPSHOT_CHANNEL);
  }

  /**
   * The copy in memory, synchronously, or undefined when there is none yet; a recheck against
   * Redis starts in the background when one is due. The fast path serves from this.
   */
  peek<N extends SnapshotName>(name: N): CachedSnapshot<ViewOf[N]> | undefined {
    const entry = this.entries.get(name);
    if (entry && Date.now() - (this.checkedAt.get(name) ?? 0) >= this.recheckMs) {
      this.revalidate(name).catch((error: unknown) =>
        this.options.logger.debug({ err: String(error), snapshot: name }, 'snapshot recheck failed; serving the copy held'),
      );
    }
    return entry as CachedSnapshot<ViewOf[N]> | undefined;
  }

  /** The copy in memory; loaded from Redis, or refreshed by the worker (bounded wait, docs/decisions.md#d8), when absent. */
  async get<N extends SnapshotName>(name: N): Promise<CachedSnapshot<ViewOf[N]>> {
    const held = this.peek(name);
    if (held) return held;
    let loaded = await this.revalidate(name);
    if (!loaded) {
      await this.options.refreshAbsent(name, true);
      loaded = await this.revalidate(name);
    }
    if (loaded) return loaded as CachedSnapshot<ViewOf[N]>;
    throw new UnavailableError('Data temporarily unavailable', 10);
  }

  /** Compares versions and reloads on change; concurrent calls share one round trip. */
  private revalidate(name: SnapshotName): Promise<CachedSnapshot | null> {
    let pending = this.inflight.get(name);
    if (!pending) {
      this.checkedAt.set(name, Date.now());
      pending = this.load(name).finally(() => this.inflight.delete(name));
      this.inflight.set(name, pending);
    }
    return pending;
  }

  private async load(name: SnapshotName): Promise<CachedSnapshot | null> {
    const current = this.entries.get(name);
    const [version] = await readSnapshotVersions(this.options.redis, [name]);
    if (!version) {
      // Gone from Redis (flushed, lost): keep serving the copy held, and have it rebuilt.
      if (current) await this.options.refreshAbsent(name, false);
      return current ?? null;
    }
    if (current?.version === version) return current;
    const stored = await readSnapshot(this.options.redis, name);
    if (!stored) return current ?? null;
    const entry = prepare(name, stored.version, stored.body, this.options.refreshIntervalMs ?? SNAPSHOT_TTL_SECONDS * 1000);
    this.entries.set(name, entry);
    this.options.logger.debug({ snapshot: name, version }, 'snapshot loaded');
    return entry;
  }
}

function prepare(name: SnapshotName, version: string, body: Buffer, lifetimeMs: number): CachedSnapshot {
  const snapshot = JSON.parse(body.toString('utf8')) as Snapshot<unknown>;
  const expiresAt = Date.parse(snapshot.cachedAt) + lifetimeMs;
  const base = { version, cachedAt: snapshot.cachedAt, expiresAt };
  switch (name) {
    case 'trending':
    case 'trending-cas':
      // Stored as the exact response body: served as it is, never re-serialized.
      return { ...base, view: { kind: 'whole', representation: new Representation(body) } };
    case 'news':
      return { ...base, view: { kind: 'news', pages: new NewsPages(snapshot as Snapshot<NewsItem[]>) } };
    case 'sentiment': {
      const records = (snapshot as Snapshot<Record<string, SentimentRecord>>).data;
      const byToken = new Map(Object.entries(records).map(([token, record]) => [token, Representation.json(record)]));
      return { ...base, view: { kind: 'sentiment', byToken } };
    }
  }
}

/** Seconds left in a snapshot's cache lifetime, for Cache-Control. */
export function secondsLeft(expiresAt: number, now = Date.now()): number {
  return Math.max(0, Math.floor((expiresAt - now) / 1000));
}
