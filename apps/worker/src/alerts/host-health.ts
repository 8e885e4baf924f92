/**
 * Receiver hosts that keep failing are paused, not hammered (README, Alerts, "Limits"): after
 * ALERTS_HOST_PAUSE_AFTER failed attempts in a row, deliveries to the host wait ALERTS_HOST_PAUSE_MS
 * without spending an attempt, then one goes through as a probe (shared/lua/gateHost-1.lua). Shared
 * by every worker through Redis; a host is its URL's `host` (name and port).
 */
import type { Redis } from 'ioredis';
import type { AlertsConfig } from '../../../../shared/alerts/alerts-config.js';
import { alertKeys } from '../../../../shared/keyspace.js';
import { runScript } from '../../../../shared/redis-scripts.js';

/** A host's run of failures is forgotten this long after its last failure. */
const FORGET_AFTER_MS = 24 * 3_600_000;

export function hostHealth(redis: Redis, config: Pick<AlertsConfig, 'hostPauseAfter' | 'hostPauseMs'>) {
  const keyOf = (url: string) => alertKeys.host(new URL(url).host);
  return {
    /** 0 when a delivery to `url` may be tried now, else how long (ms) its host is paused. */
    async waitMs(url: string): Promise<number> {
      return Number(await runScript(redis, 'gateHost', [keyOf(url)], [Date.now(), config.hostPauseAfter, config.hostPauseMs]));
    },
    /** Records an attempt: counts only what says the host is unwell (network errors, timeouts, 5xx, 408, 429). */
    async record(url: string, delivered: boolean): Promise<void> {
      const args = [delivered ? 1 : 0, Date.now(), config.hostPauseAfter, config.hostPauseMs, FORGET_AFTER_MS];
      await runScript(redis, 'recordHostAttempt', [keyOf(url)], args);
    },
  };
}
