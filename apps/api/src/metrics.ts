/** Prometheus metrics for GET /metrics: process defaults plus one request histogram. */
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

type Observer = { observe(seconds: number): void };

export class HttpMetrics {
  readonly registry = new Registry();
  private readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10],
    registers: [this.registry],
  });
  /** Labelled children by "method route status": resolving labels per request costs more than observing. */
  private readonly children = new Map<string, Observer>();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let child = this.children.get(key);
    if (!child) {
      child = this.duration.labels({ method, route, status });
      // Routes and methods are a closed set, but a method is whatever the client sent.
      if (this.children.size < 1000) this.children.set(key, child);
    }
    child.observe(seconds);
  }
}
