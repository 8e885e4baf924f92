/** Prometheus metrics for GET /metrics: process defaults plus one request histogram. */
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export class HttpMetrics {
  readonly registry = new Registry();
  private readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    this.duration.observe({ method, route, status }, seconds);
  }
}
