/** Prometheus metrics for GET /metrics: process defaults plus one request histogram. */
import { collectDefaultMetrics, Registry, type Metric } from 'prom-client';

const DURATION = {
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by route and status',
  /** Upper bounds, seconds; +Inf is implied. */
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10],
} as const;

interface Series {
  labels: { method: string; route: string; status: number };
  /** Observations per bucket (not cumulative); the last one is +Inf. */
  counts: number[];
  sum: number;
  count: number;
}

interface ExportedValue {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * The request histogram, counted here and exposed through prom-client's registry in the same
 * format prom-client's Histogram writes. prom-client's observe validates and hashes the labels on
 * every call, which cost a cached read about a tenth of its CPU (`npm run bench`); here a request
 * finds its series in three Map lookups on strings the code already holds, and adds one.
 * The series are bounded: methods are those Node's parser accepts, routes the router's patterns
 * (or 'unmatched'), statuses the few the API sends.
 */
class RequestDurations {
  readonly name = DURATION.name;
  readonly help = DURATION.help;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly byMethod = new Map<string, Map<string, Map<number, Series>>>();
  /** The same series in the order they first appeared, for the exposition. */
  private readonly all: Series[] = [];

  observe(method: string, route: string, status: number, seconds: number): void {
    let byRoute = this.byMethod.get(method);
    if (!byRoute) this.byMethod.set(method, (byRoute = new Map<string, Map<number, Series>>()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map<number, Series>()));
    let series = byStatus.get(status);
    if (!series) {
      series = { labels: { method, route, status }, counts: new Array<number>(DURATION.buckets.length + 1).fill(0), sum: 0, count: 0 };
      byStatus.set(status, series);
      this.all.push(series);
    }
    let bucket = 0;
    while (bucket < DURATION.buckets.length && seconds > DURATION.buckets[bucket]!) bucket += 1;
    series.counts[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** What the registry renders: cumulative `_bucket` lines with `le`, then `_sum` and `_count`, per series. */
  get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: ExportedValue[] }> {
    const values: ExportedValue[] = [];
    for (const { labels, counts, sum, count } of this.all) {
      let cumulative = 0;
      counts.forEach((n, i) => {
        cumulative += n;
        values.push({ metricName: `${DURATION.name}_bucket`, labels: { le: DURATION.buckets[i] ?? '+Inf', ...labels }, value: cumulative });
      });
      values.push({ metricName: `${DURATION.name}_sum`, labels, value: sum });
      values.push({ metricName: `${DURATION.name}_count`, labels, value: count });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  reset(): void {
    this.byMethod.clear();
    this.all.length = 0;
  }
}

export class HttpMetrics {
  readonly registry = new Registry();
  private readonly durations = new RequestDurations();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    // The registry reads a metric through get() and reset() only; its type lists prom-client's own classes.
    this.registry.registerMetric(this.durations as unknown as Metric);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    this.durations.observe(method, route, status, seconds);
  }
}
