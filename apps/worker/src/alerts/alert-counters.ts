/**
 * The alerts' metrics, counted in the worker counters hash (keys.workerCounters) that the API's
 * /metrics exports (apps/api/src/alerts/alert-metrics.ts): firings by condition type,
 * deliveries by outcome, and the latency from firing to delivery as histogram buckets.
 */
import type { Redis } from 'ioredis';
import { keys } from '../../../../shared/keyspace.js';
import { ALERT_LATENCY_BUCKETS_MS } from '../../../../shared/alerts/alert-metrics.js';

export function alertCounters(redis: Redis) {
  const add = (field: string, by = 1) => void redis.hincrby(keys.workerCounters(), field, by).catch(() => {});
  return {
    firing: (type: string) => add(`alert_firings|${type}|fired`),
    delivery: (outcome: string) => add(`alert_deliveries|${outcome}|webhook`),
    latency(ms: number) {
      const bucket = ALERT_LATENCY_BUCKETS_MS.find((le) => ms <= le);
      add(`alert_latency|${bucket ?? '+Inf'}|bucket`);
      add('alert_latency|sum|ms', Math.max(0, Math.round(ms)));
    },
  };
}
