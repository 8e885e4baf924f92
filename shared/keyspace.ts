/**
 * Every Redis key and channel the service uses, in one place. BullMQ keeps its own keys under
 * QUEUE_PREFIX (never an ioredis keyPrefix on its connections).
 */
import type { SnapshotName } from './reads.js';

const P = 'ms';

/** The shared snapshots the worker refreshes on a schedule: the kinds of the table in reads.ts. */
export { SNAPSHOTS, type SnapshotName } from './reads.js';

export const keys = {
  /** The snapshot body: JSON `{ data, cachedAt }`, written whole. No expiry: a failed refresh keeps it. */
  snapshot: (name: SnapshotName) => `${P}:snapshot:${name}`,
  /** A short version tag beside each snapshot, so readers can poll cheaply for change. */
  snapshotVersion: (name: SnapshotName) => `${P}:snapshot:${name}:version`,
  /** One username's stats, the response body itself; expires after STATS_TTL_SECONDS. */
  stats: (usernameKey: string) => `${P}:stats:${usernameKey}`,
  /** "Not in the index", remembered for MISS_TTL_SECONDS. */
  statsMiss: (usernameKey: string) => `${P}:stats-miss:${usernameKey}`,
  /** Stats misses (lookups that ask the upstream) charged to one client address in the current window. */
  statsMissBudget: (address: string) => `${P}:stats-miss-budget:${address}`,
  /** Stats misses charged to one API key (by its public id) in the current window. */
  statsMissBudgetForKey: (keyId: string) => `${P}:stats-miss-budget-key:${keyId}`,
  /** An API key record (hash), keyed by the SHA-256 (hex) of the key: the key itself is never stored. */
  apiKey: (sha256Hex: string) => `${P}:api-key:${sha256Hex}`,
  /** An API key's public id -> the SHA-256 under which its record lives (for `key revoke <id>`). */
  apiKeyId: (keyId: string) => `${P}:api-key-id:${keyId}`,
  /** The set of one user's API key ids (normalised email), for `key list` and for revoking them all. */
  userApiKeys: (email: string) => `${P}:user-api-keys:${email}`,
  /** A user record (hash), keyed by the normalised email. */
  user: (email: string) => `${P}:user:${email}`,
  /** The set of all user emails, for listing. */
  users: () => `${P}:users`,
  /** Failed logins for one email / one client address within the throttle window. */
  loginFailuresByEmail: (email: string) => `${P}:login-fail:email:${email}`,
  loginFailuresByAddress: (address: string) => `${P}:login-fail:addr:${address}`,
  /** Counters the worker keeps for the API's /metrics (workers have no port to scrape): hash field -> count. */
  workerCounters: () => `${P}:metrics:worker`,
} as const;

/**
 * History (docs/decisions.md#d11): Redis Streams whose entry IDs are the refresh's cachedAt in ms (`<ms>-0`),
 * written by the worker in the same atomic step as the snapshots, trimmed by MINID as they are
 * written and expiring whole once untouched for the retention window (a token that left the
 * index leaves no key behind). See shared/history/history-store.ts.
 */
const series = (name: string, id: string) => `${P}:history:${name}:${id}`;

export const historyKeys = {
  /**
   * A kind's events (shared/reads.ts names each kind's stream), field `b` = the event's data: for
   * a list kind the exact response body (`?at=` reads and its stream events); for news the posts
   * new since the previous refresh, for sentiment the records that changed (`{ data, cachedAt }`).
   */
  events: (stream: string) => `${P}:history:${stream}`,
  /** One tiny entry per trending refresh (field `n` = list length): the refresh times, cheaply. */
  trendingTimes: () => `${P}:history:trending-times`,
  /** One listed item's figures at each refresh it was listed, in its kind's series (shared/reads.ts says which fields). */
  series,
  /** One token's trending figures: r(ank), m(entions), s(mart money), p(rice change). */
  token: (ticker: string) => series('token', ticker),
  /** One token's sentiment record at each news refresh it was mentioned: s, l, m, p, u (neutral), n. */
  sentiment: (ticker: string) => series('sentiment', ticker),
  /** The post ids of the last news refresh, newline-separated: what "new since the previous refresh" compares with. */
  newsIds: () => `${P}:history:news-ids`,
} as const;

/** Pub/sub channel on which the worker announces a new snapshot (message: its name). */
export const SNAPSHOT_CHANNEL = `${P}:snapshot-updated`;

export const QUEUE_PREFIX = `${P}-bull`;

export const SNAPSHOT_TTL_SECONDS = 30 * 60;
export const STATS_TTL_SECONDS = 60 * 60;
export const MISS_TTL_SECONDS = 10 * 60;
