/**
 * Each snapshot kind's Redis keys: the keyspace's names (shared/keyspace.ts) in the slot of the
 * kind's refresh job (shared/snapshot-kinds.ts), so everything one refresh writes atomically
 * shares a hash tag on Redis Cluster (docs/redis-cluster.md).
 */
import { refreshSlotKeys } from './keyspace.js';
import { SERIES_OWNER, SNAPSHOT_KINDS, type RefreshJobName, type SeriesName, type SnapshotName } from './snapshot-kinds.js';

const jobOf = (name: SnapshotName): RefreshJobName => SNAPSHOT_KINDS[name].refreshJob;

export const snapshotKeys = {
  snapshot: (name: SnapshotName) => refreshSlotKeys.snapshot(jobOf(name), name),
  version: (name: SnapshotName) => refreshSlotKeys.snapshotVersion(jobOf(name), name),
  /** The hash tag of a snapshot: snapshots with the same tag can be read in one MGET on a cluster. */
  slotTag: jobOf,
} as const;

const series = (name: SeriesName, id?: string) =>
  refreshSlotKeys.history(jobOf(SERIES_OWNER[name]), id === undefined ? name : `${name}:${id}`);

/** History's streams (docs/decisions.md#d11, shared/history/history-store.ts). */
export const historyKeys = {
  /** A kind's events stream, field `b`: a list's exact response body; news' new posts, sentiment's changed records (`{ data, cachedAt }`). */
  events: (name: SnapshotName) => refreshSlotKeys.history(jobOf(name), SNAPSHOT_KINDS[name].events),
  /** One series of a kind (its fields: the table's `series`), per listed item's id. */
  series,
  /** One token's trending figures. */
  token: (ticker: string) => series('token', ticker),
  /** One token's sentiment record at each news refresh it was mentioned. */
  sentiment: (ticker: string) => series('sentiment', ticker),
  /** The refresh times of the trending list. */
  trendingTimes: () => series('trending-times'),
  /** The post ids of the last news refresh, newline-separated: what "new since the previous refresh" compares with. */
  newsIds: () => refreshSlotKeys.history(jobOf('news'), 'news-ids'),
} as const;
