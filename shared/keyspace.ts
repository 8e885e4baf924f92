/**
 * Every Redis key and channel the service uses, in one place, under REDIS_KEY_PREFIX (`ms` by
 * default; below as `ms`). BullMQ keeps its own keys under queuePrefix() (never an ioredis
 * keyPrefix on its connections). Laid out for Redis Cluster: keys that one script, MULTI or MGET
 * uses together share a hash tag (the part in `{}`), keys used alone carry none or a tag of their
 * own, so they spread over the masters; docs/redis-cluster.md lists each tag and why.
 */
let P = 'ms';

/**
 * Names every key of this process under `prefix` (Config.redisKeyPrefix). createRedis() calls it
 * with the config each connection is made from, so a process's keys follow the config its
 * connections follow; a test suite gives its stack a prefix of its own instead of emptying Redis.
 */
export function useKeyPrefix(prefix: string): void {
  P = prefix;
}

/** The prefix in use (provider-keys.ts names its keys under it). */
export const keyPrefix = (): string => P;

/** The slot of everything one refresh job writes atomically. */
const refresh = (job: string) => `${P}:{${job}}`;
/** Users, the user list and API keys: joined by the user and key scripts. */
const USERS = () => `${P}:{users}`;
/** The login throttle's per-email and per-address counters: one script checks both. */
const LOGIN = () => `${P}:{login}`;

/** The keys in one refresh job's slot; shared/snapshot-keys.ts names each kind's keys with these (this module imports no table). */
export const refreshSlotKeys = {
  /** A snapshot body: JSON `{ data, cachedAt }`, written whole. No expiry: a failed refresh keeps it. */
  snapshot: (job: string, name: string) => `${refresh(job)}:snapshot:${name}`,
  /** A short version tag beside each snapshot, so readers can poll cheaply for change. */
  snapshotVersion: (job: string, name: string) => `${refresh(job)}:snapshot:${name}:version`,
  /** A history stream or value of the refresh (docs/decisions.md#d11): `name` is a kind's events stream, a series and its id, or a value. */
  history: (job: string, name: string) => `${refresh(job)}:history:${name}`,
  /** The job's failures in a row (shared/refresh-backoff.ts); gone on its next success. */
  failures: (job: string) => `${refresh(job)}:failures`,
  /** Present while a failed refresh holds back the asks of reads; its PTTL is the wait (Retry-After). */
  hold: (job: string) => `${refresh(job)}:hold`,
  /** Present for FORCED_REFRESH_SPACING_MS after an admin's ask started a run of the job: asks within it join that run (apps/api/src/market/forced-refresh.ts). */
  forcedAsk: (job: string) => `${refresh(job)}:forced-ask`,
} as const;

export const keys = {
  /** One username's stats, the response body itself; expires after STATS_TTL_SECONDS. */
  stats: (usernameKey: string) => `${P}:stats:{${usernameKey}}`,
  /** "Not in the index", remembered for MISS_TTL_SECONDS. */
  statsMiss: (usernameKey: string) => `${P}:stats-miss:{${usernameKey}}`,
  /** Stats misses (lookups that ask the upstream) charged to one client (its address or IPv6 network) in the current window. */
  statsMissBudget: (clientGroup: string) => `${P}:stats-miss-budget:${clientGroup}`,
  /** Stats misses sent to the worker by every client together in the current minute (STATS_MISS_CEILING). */
  statsMissCeiling: () => `${P}:stats-miss-ceiling`,
  /** Stats misses charged to one API key (by its public id) in the current window. */
  statsMissBudgetForKey: (keyId: string) => `${P}:stats-miss-budget-key:${keyId}`,
  /** Kind-days of history one user has exported in the current hour (GET /api/export's budget). */
  exportBudget: (userId: string) => `${P}:export-budget:${userId}`,
  /** An API key record (hash), keyed by the SHA-256 (hex) of the key: the key itself is never stored. */
  apiKey: (sha256Hex: string) => `${USERS()}:api-key:${sha256Hex}`,
  /** An API key's public id -> the SHA-256 under which its record lives (for `key revoke <id>`). */
  apiKeyId: (keyId: string) => `${USERS()}:api-key-id:${keyId}`,
  /** The set of one user's API key ids (normalised email), for `key list` and for revoking them all. */
  userApiKeys: (email: string) => `${USERS()}:user-api-keys:${email}`,
  /** Hash: API key id -> ISO time it was revoked: `users import` restores no key revoked since the backup unless told to. Ids only, a few bytes each. */
  revokedApiKeys: () => `${USERS()}:revoked-api-keys`,
  /** A user record (hash), keyed by the normalised email. */
  user: (email: string) => `${USERS()}:user:${email}`,
  /** The set of all user emails, for listing. */
  users: () => `${USERS()}:all`,
  /**
   * Failed logins within the throttle window, for one email (by a fixed-length digest of it, never
   * the email itself: a name of any length would let failed logins fill Redis) and for one client
   * (an IPv4 address, an IPv6 network or a digest: apps/api/src/http/client-address.ts).
   */
  loginFailuresByEmail: (emailDigest: string) => `${LOGIN()}:fail:email:${emailDigest}`,
  loginFailuresByAddress: (clientGroup: string) => `${LOGIN()}:fail:addr:${clientGroup}`,
  /** `redis:migrate`'s ledger at the target: old key name -> a digest of the source value it last copied (scripts/redis-migrate.ts). */
  migrationLedger: () => `${P}:{migrate}:ledger`,
  /**
   * One attempt of a refresh job, claimed before it calls the upstream (apps/worker/src/refresh-outcomes.ts);
   * in BullMQ's slot, so that a WAIT after it covers the job's start on the same master.
   */
  refreshClaim: (jobId: string, attempt: number) => `${P}:${queuePrefix()}:refresh-claim:${jobId}:${attempt}`,
  /** A job (a refresh or a stats lookup) whose run stored what it fetched: no later attempt of it fetches (apps/worker/src/refresh-outcomes.ts). */
  jobStored: (queue: string, jobId: string) => `${P}:${queuePrefix()}:job-stored:${queue}:${jobId}`,
  /** Counters the worker keeps for the API's /metrics (workers have no port to scrape): hash field -> count. */
  workerCounters: () => `${P}:metrics:worker`,
} as const;

/**
 * Alert rules and everything about them (shared/alerts/): one slot, `{alerts}`, so the scripts
 * that create a rule with its indexes, and claim a firing with its cooldown, run on Cluster.
 */
const ALERTS = () => `${P}:{alerts}`;
export const alertKeys = {
  /** A rule, JSON (shared/alerts/alert-types.ts StoredRule), secrets included. */
  rule: (ruleId: string) => `${ALERTS()}:rule:${ruleId}`,
  /** The set of one user's rule ids (by user id). */
  userRules: (userId: string) => `${ALERTS()}:user-rules:${userId}`,
  /** The rule ids of one condition type for one subject (a token, a chain, or `*` for any): evaluation reads only these. */
  index: (type: string, subject: string) => `${ALERTS()}:index:${type}:${subject}`,
  /** When a rule last fired (ms), for its cooldown. */
  lastFired: (ruleId: string) => `${ALERTS()}:last-fired:${ruleId}`,
  /** A rule's claim on one refresh: set once, so the same refresh never fires the rule twice (lives about two refresh intervals). */
  claim: (ruleId: string, refreshId: string) => `${ALERTS()}:claim:${ruleId}:${refreshId}`,
  /**
   * What a refresh kind (trending, trending-cas, news) was last evaluated through (hash: `at`, its
   * cachedAt; `body`, what the next evaluation compares against), moved with the claims in one step.
   */
  evaluated: (kind: string) => `${ALERTS()}:evaluated:${kind}`,
  /** Firings claimed whose delivery jobs are not known to be queued yet (hash: event id -> jobs, JSON); the evaluator empties it. */
  outbox: () => `${ALERTS()}:outbox`,
  /** A rule's last delivery attempts (list of JSON, newest first, capped). */
  deliveries: (ruleId: string) => `${ALERTS()}:deliveries:${ruleId}`,
  /** A rule's events that failed for good in a row; gone at the next delivered one. */
  failedEvents: (ruleId: string) => `${ALERTS()}:failed-events:${ruleId}`,
  /** One user's recent firings (stream, capped): GET /api/alerts/stream and the MCP tool read it. */
  firings: (userId: string) => `${ALERTS()}:firings:${userId}`,
  /** One user's deliveries outstanding (sorted set: job id by when it was fired), held to ALERTS_USER_OUTSTANDING_MAX. */
  outstanding: (userId: string) => `${ALERTS()}:outstanding:${userId}`,
  /** A receiver host's run of failed attempts and, past ALERTS_HOST_PAUSE_AFTER, until when it is paused (hash). */
  host: (host: string) => `${ALERTS()}:host:${host}`,
  /** Test sends of one rule in the current minute (POST /api/alerts/{id}/test); expires with the window. */
  testBudgetRule: (ruleId: string) => `${ALERTS()}:test-budget:rule:${ruleId}`,
  /** Test sends of one user in the current hour; expires with the window. */
  testBudgetUser: (userId: string) => `${ALERTS()}:test-budget:user:${userId}`,
  /** Bumped by every change of any rule: a worker's parsed rules stay valid while it holds. */
  version: () => `${ALERTS()}:version`,
  /** The mentions of each trending token over the last refreshes (JSON), for the spike condition. */
  mentionsWindow: () => `${ALERTS()}:mentions-window`,
} as const;

/** Pub/sub channel on which the worker announces a firing (message: the user id). */
export const alertFiredChannel = (): string => `${P}:alert-fired`;

/**
 * The user list's name before the keys carried hash tags. A Redis that holds it and not the
 * tagged list was never migrated: starting would serve no users (README, Moving to Redis Cluster).
 */
export const untaggedUsersKey = (): string => `${P}:users`;

/** Pub/sub channel on which the worker announces a new snapshot (message: its name). */
export const snapshotChannel = (): string => `${P}:snapshot-updated`;

/** BullMQ documents a hash-tagged prefix as required on Cluster: its scripts span a queue's keys. */
export const queuePrefix = (): string => `{${P}-bull}`;

export const STATS_TTL_SECONDS = 60 * 60;
export const MISS_TTL_SECONDS = 10 * 60;

/**
 * Mindshare's buckets (docs/decisions.md#d20), all in one slot, `{mindshare}`: a window is read
 * across its buckets in one pipeline, and the worker's script dedupes and counts in one step.
 */
export const mindshareKeys = {
  /** One UTC hour's or day's counts (by its start in ms): `t` all token mentions; `m:<T>`, `e:<T>`, `s:<T>`, `a:<T>` (its authors, each followed by a newline) per token. */
  bucket: (unit: 'hour' | 'day', startMs: number) => `${P}:{mindshare}:${unit}:${startMs}`,
  /** The ids of the posts of that hour already counted: each post counts once however many refreshes see it. */
  seen: (hourMs: number) => `${P}:{mindshare}:seen:${hourMs}`,
} as const;

/**
 * The callers' records (docs/decisions.md#callers), all in one slot, `{callers}`: the worker's
 * scripts check and append in one step, and the API reads the day lists in one pipeline.
 */
export const callersKeys = {
  /** One account's (lower case) last mention of each token or address: field the id, value the post's time in ms. */
  lastMention: (account: string) => `${P}:{callers}:last:${account}`,
  /** The calls recorded in one UTC day (by its start in ms, the day of the refresh that saw them): a list, appended only. */
  calls: (dayMs: number) => `${P}:{callers}:calls:${dayMs}`,
  /** The breakouts recorded in one UTC day: a list, appended only. */
  breakouts: (dayMs: number) => `${P}:{callers}:breakouts:${dayMs}`,
  /** When the first news refresh recorded (ms): that refresh only seeds the last mentions (its posts' quiet periods were never seen). */
  callsSince: () => `${P}:{callers}:calls-since`,
  /** The ids a trending list (`token` or `ca`) had in its top, with when each was last there; `#seeded` its first refresh. */
  top: (list: 'token' | 'ca') => `${P}:{callers}:top:${list}`,
} as const;

/** The stories' keys (docs/decisions.md#d23), in one slot, `{stories}`. */
export const storiesKeys = {
  /**
   * The story engine's state between news refreshes (apps/worker/src/stories/engine.ts), a hash:
   * `version` (new at each write), `rest` (JSON: live storylines, fingerprints), `mean` and
   * `variance` (the baselines' bytes). A worker rereads it only when `version` is not the one it wrote.
   */
  state: () => `${P}:{stories}:engine`,
  /** The state's key before it was a hash (one JSON string): removed by the first write of the new one. */
  legacyState: () => `${P}:{stories}:state`,
} as const;
