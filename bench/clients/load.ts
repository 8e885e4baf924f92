/**
 * The load generator: autocannon in a process of its own (it needs about a core, and must not
 * share the event loop of anything it measures), kept alive between rounds and driven over
 * IPC. Latencies are taken from autocannon's per-response hrtime, not its whole-millisecond
 * histogram: at ~2 ms per request a rounded p50 says nothing.
 */
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from '../lib/types.js';

type Request = { id: number; spec: LoadSpec };

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function run(spec: LoadSpec): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let nextPath = 0;
  const { paths } = spec;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        ...(spec.amount ? { amount: spec.amount } : { duration: spec.durationSec }),
        ...(spec.rate ? { overallRate: spec.rate } : {}),
        method: spec.method ?? 'GET',
        headers: spec.headers ?? {},
        ...(spec.body !== undefined ? { body: spec.body } : {}),
        // Each request's path is the next of `paths` (autocannon builds a request just before sending it).
        ...(paths
          ? { amount: paths.length, requests: [{ setupRequest: (req) => ({ ...req, path: paths[nextPath++ % paths.length] }) }] }
          : {}),
        timeout: spec.timeoutSec ?? 10,
        // Ends a round within 100 ms of its last response (the default 1 s tick would pad
        // every quick round to a second).
        sampleInt: 100,
      },
      (error, result) => {
        if (error) return reject(error);
        const sorted = latencies.subarray(0, count).sort();
        const byStatus = Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count: n }]) => [status, n]));
        let sum = 0;
        for (const value of sorted) sum += value;
        resolve({
          responses: count,
          byStatus,
          errors: result.errors,
          timeouts: result.timeouts,
          durationSec: result.duration,
          rps: result.duration > 0 ? count / result.duration : 0,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          mean: count > 0 ? sum / count : 0,
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTimeMs) => {
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = responseTimeMs;
    });
  });
}

process.on('message', (message: Request) => {
  run(message.spec).then(
    (result) => process.send?.({ id: message.id, result }),
    (error: unknown) => process.send?.({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
process.send?.({ ready: true });
