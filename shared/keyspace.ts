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

/** Pub/sub channel on which the worker announces a new snapshot (message: its name). */
export const SNAPSHOT_CHANNEL = `${P}:snapshot-updated`;

export const QUEUE_PREFIX = `${P}-bull`;

export const SNAPSHOT_TTL_SECONDS = 30 * 60;
export const STATS_TTL_SECONDS = 60 * 60;
export const MISS_TTL_SECONDS = 10 * 60;
