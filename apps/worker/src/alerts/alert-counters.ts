/**
 * The alerts' metrics, counted in the worker counters hash (keys.workerCounters) that the API's
 * /metrics exports (apps/api/src/alerts/alert-metrics.ts): firings by condition type,
 * deliveries by outcome, and the latency from firing to delivery as histogram buckets.
 */
import type { Redis } from 'ioredis';
import { keys } from '../../../../shared/keyspace.js';
import { ALERT_LATENCY_BUCKETS_MS } from '../../../../shared/alerts/alert-metrics.js';

export function alertCounters(redis: Redis) {
  // One pipeline per event counted: a delivery's counters cost one write, not three.
  const add = (...fields: [string, number][]) => {
    const batch = redis.pipeline();
    for (const [field, by] of fields) batch.hincrby(keys.workerCounters(), field, by);
    void batch.exec().catch(() => {});
  };
  return {
    firing: (type: string, count = 1) => add([`alert_firings|${type}|fired`, count]),
    /** Deliveries dropped before any attempt (over the queue's or a user's cap). */
    dropped: (count: number) => add(['alert_deliveries|dropped|webhook', count]),
    /** A delivery attempt's outcome, with the latency from firing to receiver when it was delivered. */
    delivery(outcome: string, latencyMs?: number) {
      if (latencyMs === undefined) return add([`alert_deliveries|${outcome}|webhook`, 1]);
      const bucket = ALERT_LATENCY_BUCKETS_MS.find((le) => latencyMs <= le);
      add(
        [`alert_deliveries|${outcome}|webhook`, 1],
        [`alert_latency|${bucket ?? '+Inf'}|bucket`, 1],
        ['alert_latency|sum|ms', Math.max(0, Math.round(latencyMs))],
      );
    },
  };
}
