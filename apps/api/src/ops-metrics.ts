/**
 * Gauges and counters read when Prometheus scrapes /metrics, for the dashboard and alert rules
 * in ops/: the age of each shared snapshot in Redis (its version is its cachedAt), whether Redis answers, the jobs in
 * each queue by state, and the worker's job and upstream-call outcomes (kept in Redis by
 * apps/worker/src/counters.ts, since worker processes have no port to scrape).
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Counter, Gauge, type Registry } from 'prom-client';
import { keys } from '../../../shared/keyspace.js';
import { SNAPSHOTS } from '../../../shared/snapshot-kinds.js';
import { readSnapshotVersions } from '../../../shared/snapshot-store.js';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

export interface OpsSources {
  redis: Redis;
  queues: Queue[];
}

export function registerOpsMetrics(registry: Registry, { redis, queues }: OpsSources): void {
  new Gauge({
    name: 'market_snapshot_age_seconds',
    help: 'Seconds since the worker last refreshed each shared snapshot in Redis, by kind',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const versions = await readSnapshotVersions(redis, SNAPSHOTS).catch(() => []);
      SNAPSHOTS.forEach((kind, i) => {
        const refreshed = Date.parse(versions[i] ?? '');
        if (!Number.isNaN(refreshed)) this.set({ kind }, Math.max(0, (Date.now() - refreshed) / 1000));
      });
    },
  });
  new Gauge({
    name: 'redis_up',
    help: '1 when Redis answered a PING during this scrape, else 0',
    registers: [registry],
    async collect() {
      this.set(
        await redis.ping().then(
          () => 1,
          () => 0,
        ),
      );
    },
  });
  new Gauge({
    name: 'bullmq_queue_jobs',
    help: 'Jobs in each queue by state',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const queue of queues) {
        const counts = await queue.getJobCounts(...QUEUE_STATES).catch(() => undefined);
        for (const state of QUEUE_STATES) if (counts) this.set({ queue: queue.name, state }, counts[state] ?? 0);
      }
    },
  });
  registerWorkerCounters(registry, redis, [
    ['market_worker_jobs_total', 'Jobs the workers finished, by queue and outcome (completed, failed)', 'jobs', ['queue', 'outcome']],
    [
      'market_refresh_attempts_total',
      'Refresh attempts by the workers (each may call the upstream), by job and outcome (ok, failed)',
      'refresh',
      ['job', 'outcome'],
    ],
    [
      'market_upstream_requests_total',
      'Calls of the upstream index by the workers, by call and outcome (ok, error)',
      'upstream',
      ['call', 'outcome'],
    ],
  ]);
}

/** A counter: its name, help, the `metric` of its fields in the workers' hash, and its two labels. */
export type WorkerCounter = readonly [name: string, help: string, metric: string, labelNames: readonly [string, string]];

/**
 * Counters whose values the workers keep in their Redis hash (`<metric>|<label>|<outcome>`
 * fields, apps/worker/src/counters.ts), read at scrape time.
 */
export function registerWorkerCounters(registry: Registry, redis: Redis, counters: readonly WorkerCounter[]): void {
  for (const [name, help, metric, labelNames] of counters) {
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const fields = await redis.hgetall(keys.workerCounters()).catch(() => ({}));
        this.reset();
        for (const [field, value] of Object.entries(fields)) {
          const [kind, label = '', outcome = ''] = field.split('|');
          if (kind === metric) this.inc({ [labelNames[0]]: label, [labelNames[1]]: outcome }, Number(value));
        }
      },
    });
  }
}
