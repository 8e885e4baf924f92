/**
 * The API's in-memory copy of the shared snapshots, prepared for serving; Redis stays the truth.
 * The copy is reloaded when the snapshot watch says a refresh landed, so serving never touches Redis.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../../../../shared/logger.js';
import type { NewsItem, SentimentRecord, Snapshot } from '../../../../shared/market-types.js';
import { SNAPSHOT_KINDS, SNAPSHOTS, type SnapshotName, type ViewKind, type ViewOfKind } from '../../../../shared/snapshot-kinds.js';
import { isRedisUnavailable } from '../../../../shared/redis-errors.js';
import { readSnapshot, readSnapshotVersions } from '../../../../shared/snapshot-store.js';
import { UnavailableError } from '../../../../shared/errors.js';
import { boundedCache, type BoundedCache } from '../cache/bounded-cache.js';
import { Representation } from '../http/representation.js';
import { NewsPages } from './news-pages.js';
import { StoriesView } from './stories-view.js';
import type { StoriesSnapshotData } from '../../../../shared/stories.js';
import type { SnapshotWatch } from './snapshot-watch.js';

/** How each view kind of shared/snapshot-kinds.ts is built from the stored body. */
const VIEWS = {
  // Stored as the exact response body: served as it is, never re-serialized.
  whole: (body: Buffer) => ({ representation: new Representation(body) }),
  pages: (_body: Buffer, snapshot: Snapshot<unknown>) => ({ pages: new NewsPages(snapshot as Snapshot<NewsItem[]>) }),
  byToken: (_body: Buffer, snapshot: Snapshot<unknown>) => {
    const records = (snapshot as Snapshot<Record<string, SentimentRecord>>).data;
    return {
      byToken: new Map(Object.entries(records).map(([token, record]) => [token, Representation.json(record)])) as ReadonlyMap<
        string,
        Representation
      >,
    };
  },
  // Mindshare: one answer per window, `{ window, data, cachedAt }` (GET /api/market/mindshare?window=).
  byWindow: (_body: Buffer, snapshot: Snapshot<unknown>) => {
    const lists = (snapshot as Snapshot<Record<string, unknown[]>>).data;
    return {
      byWindow: new Map(
        Object.entries(lists).map(([window, data]) => [window, Representation.json({ window, data, cachedAt: snapshot.cachedAt })]),
      ) as ReadonlyMap<string, Representation>,
    };
  },
  // Stories: each window's ranked list, a token's, and each story by id (GET /api/market/stories, /stories/:id).
  stories: (_body: Buffer, snapshot: Snapshot<unknown>) => ({ stories: new StoriesView(snapshot as Snapshot<StoriesSnapshotData>) }),
} satisfies Record<ViewKind, (body: Buffer, snapshot: Snapshot<unknown>) => object>;

export type ViewOf<N extends SnapshotName> = ReturnType<(typeof VIEWS)[ViewOfKind<N>]>;
type AnyView = ReturnType<(typeof VIEWS)[ViewKind]>;

export interface CachedSnapshot<V = AnyView> {
  version: string;
  cachedAt: string;
  /** When the entry's 30-minute lifetime ends (ms since epoch); Cache-Control counts down to it. */
  expiresAt: number;
  view: V;
}

export interface SnapshotCacheOptions {
  redis: Redis;
  watch: SnapshotWatch;
  logger: Logger;
  /**
   * Asks the worker for an immediate, deduplicated refresh; with `wait`, waits for it boundedly (docs/decisions.md#d8).
   * Resolves with the ms to wait when a failed refresh holds asks back (docs/decisions.md#d14): the 503's Retry-After.
   */
  refreshAbsent: (name: SnapshotName, wait: boolean) => Promise<number | undefined>;
  /** REFRESH_INTERVAL: `Cache-Control: max-age` counts down to it. */
  refreshIntervalMs: number;
}

export class SnapshotCache {
  private readonly copies: BoundedCache<SnapshotName, CachedSnapshot>;

  constructor(private readonly options: SnapshotCacheOptions) {
    this.copies = boundedCache({ max: SNAPSHOTS.length, load: (name, held) => this.load(name, held) });
  }

  start(): void {
    this.options.watch.on('landed', (name, version) => {
      if (version !== null) {
        // Every snapshot is loaded as it lands, asked for or not: a process that has served no read
        // yet still answers from memory when Redis goes away (the watch reports each version at start).
        // A failed load is logged by load(); the copy held goes on being served.
        this.reload(name).catch(() => {});
        return;
      }
      // Gone from Redis (flushed, lost): keep serving the copy held, and have it rebuilt.
      if (this.copies.has(name))
        this.options
          .refreshAbsent(name, false)
          .catch((error: unknown) => this.options.logger.warn({ snapshot: name, err: String(error) }, 'could not ask for a lost snapshot'));
    });
  }

  /** The copy in memory, or undefined when there is none yet. */
  peek<N extends SnapshotName>(name: N): CachedSnapshot<ViewOf<N>> | undefined {
    return this.copies.get(name, { allowStale: true }) as CachedSnapshot<ViewOf<N>> | undefined;
  }

  /** The copy in memory; loaded from Redis, or refreshed by the worker (bounded wait, docs/decisions.md#d8), when absent. */
  async get<N extends SnapshotName>(name: N): Promise<CachedSnapshot<ViewOf<N>>> {
    const held = this.peek(name);
    if (held) return held;
    let loaded = await this.reload(name);
    let heldMs: number | undefined;
    if (!loaded) {
      heldMs = await this.options.refreshAbsent(name, true);
      loaded = await this.reload(name);
    }
    if (loaded) return loaded as CachedSnapshot<ViewOf<N>>;
    throw new UnavailableError('Data temporarily unavailable', heldMs === undefined ? 10 : heldMs / 1000);
  }

  /** Reloads on a new version; concurrent calls share one load. */
  private reload(name: SnapshotName): Promise<CachedSnapshot | undefined> {
    return this.copies.fetch(name, { forceRefresh: true });
  }

  /** A load that throws keeps the copy held (boundedCache) without a word: so a snapshot that cannot be read or parsed is logged here. */
  private async load(name: SnapshotName, held: CachedSnapshot | undefined): Promise<CachedSnapshot | undefined> {
    let version: string | null | undefined;
    try {
      [version] = await readSnapshotVersions(this.options.redis, [name]);
      if (!version || held?.version === version) return held;
      const stored = await readSnapshot(this.options.redis, name);
      if (!stored) return held;
      const entry = prepare(name, stored.version, stored.body, this.options.refreshIntervalMs);
      this.options.logger.debug({ snapshot: name, version }, 'snapshot loaded');
      return entry;
    } catch (error) {
      // Redis away is logged once by its connection, not once per read that finds it away.
      if (isRedisUnavailable(error)) throw error;
      this.options.logger.warn(
        { snapshot: name, version, heldVersion: held?.version ?? null, err: String(error) },
        held ? 'snapshot failed to load; the copy held is still served' : 'snapshot failed to load',
      );
      throw error;
    }
  }
}

function prepare(name: SnapshotName, version: string, body: Buffer, lifetimeMs: number): CachedSnapshot {
  const snapshot = JSON.parse(body.toString('utf8')) as Snapshot<unknown>;
  const view = VIEWS[SNAPSHOT_KINDS[name].view](body, snapshot);
  return { version, cachedAt: snapshot.cachedAt, expiresAt: Date.parse(snapshot.cachedAt) + lifetimeMs, view };
}

/** Seconds left in a snapshot's cache lifetime. */
export function secondsLeft(expiresAt: number, now = Date.now()): number {
  return Math.max(0, Math.floor((expiresAt - now) / 1000));
}
