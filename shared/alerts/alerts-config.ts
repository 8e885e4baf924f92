/**
 * The alerts' variables (README, Alerts), parsed with the rest of the configuration by
 * loadConfig(). Kept apart so the alerts feature reads as one piece.
 */
import { boolean, integer, problem, type Env } from '../config-vars.js';

export interface AlertsConfig {
  /** ALERTS_MAX_PER_USER: rules one user may hold. Default 100. */
  readonly maxPerUser: number;
  /**
   * ALERTS_ALLOW_LOOPBACK: let webhook URLs resolve to loopback (127.0.0.0/8, ::1), and use
   * `http:`. For tests and development only; every other private, link-local, CGNAT,
   * unique-local, multicast or unspecified address stays refused. Default false.
   */
  readonly allowLoopback: boolean;
  /** ALERTS_REQUIRE_HTTPS: webhook URLs must be `https:`. Default true in production, else false. */
  readonly requireHttps: boolean;
  /** ALERTS_DELIVERY_CONCURRENCY: webhook deliveries in flight per worker process. Default 50. */
  readonly deliveryConcurrency: number;
  /** ALERTS_RETRY_BASE_MS: the first retry's delay; each next one doubles (with jitter). Default 10000. */
  readonly retryBaseMs: number;
  /** ALERTS_RETRY_MAX_DELAY_MS: the longest wait between two attempts. Default 6 h. */
  readonly retryMaxDelayMs: number;
  /** ALERTS_DELIVERY_ATTEMPTS: attempts per event, first one included. Default 15 (about 23 h with the defaults). */
  readonly deliveryAttempts: number;
  /** ALERTS_DISABLE_AFTER_FAILED_EVENTS: a rule whose events fail this many times in a row is disabled. Default 10. */
  readonly disableAfterFailedEvents: number;
  /** ALERTS_CONNECT_TIMEOUT_MS: connecting to a receiver (DNS included). Default 3000. */
  readonly connectTimeoutMs: number;
  /** ALERTS_REQUEST_TIMEOUT_MS: a whole delivery attempt. Default 10000. */
  readonly requestTimeoutMs: number;
  /** ALERTS_DELIVERY_LOCK_MS: BullMQ's lock on an attempt; a killed worker's delivery is taken over after about this. Default 30000. */
  readonly deliveryLockMs: number;
  /** ALERTS_SECRET_GRACE_SECONDS: after a rotation, how long the old secret still signs (both signatures are sent). Default 86400. */
  readonly secretGraceSeconds: number;
  /**
   * ALERTS_USER_IN_FLIGHT: deliveries of one user in flight per worker process; more wait (re-delayed
   * briefly), so one user's slow receivers hold at most this many of the ALERTS_DELIVERY_CONCURRENCY slots. Default 5.
   */
  readonly userInFlight: number;
  /**
   * ALERTS_USER_OUTSTANDING_MAX: deliveries one user may have outstanding (waiting, delayed or being
   * tried); past it the oldest are dropped, each recorded on its rule's log. Default 2000 (a job is
   * about 2.4 KB: some 5 MB of Redis per user at most).
   */
  readonly userOutstandingMax: number;
  /** ALERTS_HOST_PAUSE_AFTER: failed attempts in a row (network errors, timeouts, 5xx, 408, 429) that pause a receiver host. Default 5. */
  readonly hostPauseAfter: number;
  /** ALERTS_HOST_PAUSE_MS: how long a paused host waits before one probe attempt is sent to it. Default 60000. */
  readonly hostPauseMs: number;
  /** ALERTS_TEST_PER_RULE_PER_MINUTE: POST /api/alerts/{id}/test calls one rule may make per minute. Default 5. */
  readonly testsPerRulePerMinute: number;
  /** ALERTS_TEST_PER_USER_PER_HOUR: test calls one user may make per hour, all rules together. Default 20. */
  readonly testsPerUserPerHour: number;
  /**
   * ALERTS_QUEUE_MAX: deliveries waiting or delayed in the whole queue beyond which a test send is
   * refused (503) and a firing's deliveries are dropped, each recorded on its rule's log. Default
   * 50000 (a queued job is about 2.4 KB: some 120 MB of Redis).
   */
  readonly queueMax: number;
  /**
   * WORKER_ROLES: what a worker process runs, comma-separated: `refresh` (the refresh and stats
   * queues, and alert evaluation), `delivery` (the webhook delivery queue). Default both; a
   * Procfile line `alerts: WORKER_ROLES=delivery node dist/apps/worker/src/main.js` scales
   * deliveries apart (README, Alerts).
   */
  readonly workerRoles: readonly WorkerRole[];
}

export type WorkerRole = 'refresh' | 'delivery';

function roles(env: Env): WorkerRole[] {
  const raw = env.WORKER_ROLES;
  if (raw === undefined || raw.trim() === '') return ['refresh', 'delivery'];
  const list = raw.split(',').map((role) => role.trim());
  if (list.some((role) => role !== 'refresh' && role !== 'delivery')) {
    problem(env, `WORKER_ROLES: must be refresh, delivery or both comma-separated, got "${raw}"`);
    return ['refresh', 'delivery'];
  }
  return [...new Set(list as WorkerRole[])];
}

export function alertsConfig(env: Env, production: boolean): AlertsConfig {
  const allowLoopback = boolean(env, 'ALERTS_ALLOW_LOOPBACK', false);
  if (production && allowLoopback) problem(env, 'ALERTS_ALLOW_LOOPBACK: not allowed when NODE_ENV=production');
  return {
    maxPerUser: integer(env, 'ALERTS_MAX_PER_USER', 100, 1, 100_000),
    allowLoopback,
    requireHttps: boolean(env, 'ALERTS_REQUIRE_HTTPS', production),
    deliveryConcurrency: integer(env, 'ALERTS_DELIVERY_CONCURRENCY', 50, 1, 1000),
    retryBaseMs: integer(env, 'ALERTS_RETRY_BASE_MS', 10_000, 1, 3_600_000),
    retryMaxDelayMs: integer(env, 'ALERTS_RETRY_MAX_DELAY_MS', 6 * 3_600_000, 1, 24 * 3_600_000),
    deliveryAttempts: integer(env, 'ALERTS_DELIVERY_ATTEMPTS', 15, 1, 50),
    disableAfterFailedEvents: integer(env, 'ALERTS_DISABLE_AFTER_FAILED_EVENTS', 10, 1, 10_000),
    connectTimeoutMs: integer(env, 'ALERTS_CONNECT_TIMEOUT_MS', 3000, 100, 60_000),
    requestTimeoutMs: integer(env, 'ALERTS_REQUEST_TIMEOUT_MS', 10_000, 100, 60_000),
    deliveryLockMs: integer(env, 'ALERTS_DELIVERY_LOCK_MS', 30_000, 1000, 600_000),
    secretGraceSeconds: integer(env, 'ALERTS_SECRET_GRACE_SECONDS', 86_400, 0, 7 * 86_400),
    userInFlight: integer(env, 'ALERTS_USER_IN_FLIGHT', 5, 1, 1000),
    userOutstandingMax: integer(env, 'ALERTS_USER_OUTSTANDING_MAX', 2000, 1, 1_000_000),
    hostPauseAfter: integer(env, 'ALERTS_HOST_PAUSE_AFTER', 5, 1, 10_000),
    hostPauseMs: integer(env, 'ALERTS_HOST_PAUSE_MS', 60_000, 100, 24 * 3_600_000),
    testsPerRulePerMinute: integer(env, 'ALERTS_TEST_PER_RULE_PER_MINUTE', 5, 1, 1000),
    testsPerUserPerHour: integer(env, 'ALERTS_TEST_PER_USER_PER_HOUR', 20, 1, 100_000),
    queueMax: integer(env, 'ALERTS_QUEUE_MAX', 50_000, 10, 10_000_000),
    workerRoles: roles(env),
  };
}
