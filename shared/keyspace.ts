/**
 * Every Redis key and channel the service uses, in one place. BullMQ keeps its own keys under
 * QUEUE_PREFIX (never an ioredis keyPrefix on its connections).
 */
const P = 'ms';

/** The shared snapshots the worker refreshes on a schedule. */
export const SNAPSHOTS = ['trending', 'news', 'trending-cas', 'sentiment'] as const;
export type SnapshotName = (typeof SNAPSHOTS)[number];

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
 * History (issue 12): Redis Streams whose entry IDs are the refresh's cachedAt in ms (`<ms>-0`),
 * written by the worker in the same atomic step as the snapshots, trimmed by MINID as they are
 * written and expiring whole once untouched for the retention window (a token that left the
 * index leaves no key behind). See shared/history/history-store.ts.
 */
export const historyKeys = {
  /** Every trending snapshot, field `b` = the exact response body: `?at=` reads and `trending` events. */
  trending: () => `${P}:history:trending`,
  /** One tiny entry per trending refresh (field `n` = list length): the refresh times, cheaply. */
  trendingTimes: () => `${P}:history:trending-times`,
  /** Every trending-cas snapshot, field `b` = the exact response body. */
  trendingCas: () => `${P}:history:trending-cas`,
  /** One token's trending figures at each refresh it was listed: r(ank), m(entions), s(mart money), p(rice change). */
  token: (ticker: string) => `${P}:history:token:${ticker}`,
  /** One contract address's figures at each refresh it was listed: c(hain), m(entions), s(mart money). */
  contract: (address: string) => `${P}:history:ca:${address}`,
  /** One token's sentiment record at each news refresh it was mentioned: s, l, m, p, u (neutral), n. */
  sentiment: (ticker: string) => `${P}:history:sentiment:${ticker}`,
  /** The `news` event of each news refresh, field `b` = `{ data: <new posts>, cachedAt }`. */
  newsEvents: () => `${P}:history:news-events`,
  /** The `sentiment` event of each news refresh, field `b` = `{ data: <changed records>, cachedAt }`. */
  sentimentEvents: () => `${P}:history:sentiment-events`,
  /** The post ids of the last news refresh, newline-separated: what "new since the previous refresh" compares with. */
  newsIds: () => `${P}:history:news-ids`,
} as const;

/** Pub/sub channel on which the worker announces a new snapshot (message: its name). */
export const SNAPSHOT_CHANNEL = `${P}:snapshot-updated`;

export const QUEUE_PREFIX = `${P}-bull`;

export const SNAPSHOT_TTL_SECONDS = 30 * 60;
export const STATS_TTL_SECONDS = 60 * 60;
export const MISS_TTL_SECONDS = 10 * 60;
