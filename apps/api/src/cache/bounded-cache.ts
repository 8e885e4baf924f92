/**
 * The API's one in-memory cache policy, for every copy the process keeps: bounded by a count, least
 * recently used out first, an optional lifetime; with a loader, `fetch` is a single flight.
 */
import { LRUCache } from 'lru-cache';

export interface BoundedCacheOptions<K, V, C> {
  /** Entries kept at most; the least recently used go first. */
  max: number;
  /** How long an entry is served, ms. Default: until evicted. */
  ttlMs?: number;
  /**
   * Builds the value of `key` on fetch: concurrent fetches of one key share one call. `held`
   * is the value held (a reload may keep it); resolving undefined removes the key. A load that
   * throws keeps the value held.
   */
  load?: (key: K, held: V | undefined, context: C) => Promise<V | undefined>;
}

/** lru-cache keeps neither null nor undefined as a key or a value. */
type Present = NonNullable<unknown>;

export type BoundedCache<K extends Present, V extends Present, C = unknown> = LRUCache<K, V, C>;

export function boundedCache<K extends Present, V extends Present, C = unknown>(
  options: BoundedCacheOptions<K, V, C>,
): BoundedCache<K, V, C> {
  const { max, ttlMs, load } = options;
  return new LRUCache<K, V, C>({
    max,
    ...(ttlMs ? { ttl: ttlMs } : {}),
    ...(load
      ? {
          fetchMethod: (key: K, held: V | undefined, { context }: { context: C }) => load(key, held, context),
          // A failed load (Redis unreachable) keeps serving the copy held; a caller without one sees the error.
          noDeleteOnFetchRejection: true,
          allowStaleOnFetchRejection: true,
        }
      : {}),
  });
}
