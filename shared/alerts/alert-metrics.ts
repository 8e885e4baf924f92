/** The upper bounds (ms) of the firing-to-delivery latency histogram the worker counts and /metrics exports. */
export const ALERT_LATENCY_BUCKETS_MS = [50, 100, 250, 500, 1000, 2000, 5000, 15_000, 60_000, 300_000, 3_600_000] as const;
