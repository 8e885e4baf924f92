/**
 * The alerts' metrics on /metrics, from the counts the workers keep in their counters hash
 * (apps/worker/src/alerts/alert-counters.ts): firings by condition type, deliveries by outcome,
 * and the firing-to-delivery latency as cumulative `_bucket{le}` series with `_sum` and
 * `_count`, so `histogram_quantile()` reads them as a histogram.
 */
import type { Redis } from 'ioredis';
import { Counter, type Registry } from 'prom-client';
import { ALERT_LATENCY_BUCKETS_MS } from '../../../../shared/alerts/alert-metrics.js';
import { keys } from '../../../../shared/keyspace.js';
import { registerWorkerCounters } from '../ops-metrics.js';

export function registerAlertMetrics(registry: Registry, redis: Redis): void {
  registerWorkerCounters(registry, redis, [
    ['market_alert_firings_total', 'Alert rules fired, by condition type', 'alert_firings', ['condition', 'outcome']],
    [
      'market_alert_deliveries_total',
      'Webhook delivery attempts, by outcome (delivered, retrying, failed, dropped)',
      'alert_deliveries',
      ['outcome', 'kind'],
    ],
  ]);
  const read = () => redis.hgetall(keys.workerCounters()).catch((): Record<string, string> => ({}));
  new Counter({
    name: 'market_alert_delivery_latency_seconds_bucket',
    help: 'Events delivered within `le` seconds of their rule firing (cumulative; with _sum and _count, a histogram)',
    labelNames: ['le'],
    registers: [registry],
    async collect() {
      const fields = await read();
      this.reset();
      let cumulative = 0;
      for (const le of ALERT_LATENCY_BUCKETS_MS) {
        cumulative += Number(fields[`alert_latency|${le}|bucket`] ?? 0);
        this.inc({ le: String(le / 1000) }, cumulative);
      }
      cumulative += Number(fields['alert_latency|+Inf|bucket'] ?? 0);
      this.inc({ le: '+Inf' }, cumulative);
    },
  });
  new Counter({
    name: 'market_alert_delivery_latency_seconds_sum',
    help: 'Sum of the firing-to-delivery latencies, in seconds',
    registers: [registry],
    async collect() {
      this.reset();
      this.inc(Number((await read())['alert_latency|sum|ms'] ?? 0) / 1000);
    },
  });
  new Counter({
    name: 'market_alert_delivery_latency_seconds_count',
    help: 'Events delivered (the latency histogram’s count)',
    registers: [registry],
    async collect() {
      const fields = await read();
      this.reset();
      this.inc(
        Object.entries(fields).reduce(
          (sum, [field, value]) => (/^alert_latency\|[^|]+\|bucket$/.test(field) ? sum + Number(value) : sum),
          0,
        ),
      );
    },
  });
}
