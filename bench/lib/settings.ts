/** How long each part runs: the full run (minutes, for the table) and --quick (seconds, for CI). */
export interface Settings {
  quick: boolean;
  /** Concurrent connections of every read round. */
  connections: number;
  /** Seconds per measured round. */
  durationSec: number;
  /** Quick mode: a fixed number of requests per round instead of a duration. */
  amount?: number;
  /** Interleaved repetitions of the whole read matrix (the second runs in reverse order). */
  reps: number;
  /** Unrecorded seconds per (server, read) before the first repetition; 0 for none. */
  warmupSec: number;
  /** Sequential logins per kind for the unknown-email / wrong-password timing. */
  timingSamples: number;
  /** News refreshes in the worker child (CPU and RSS). */
  refreshes: number;
  /** Simultaneous requests for one uncached username, and the upstream's latency meanwhile. */
  burst: { count: number; upstreamLatencyMs: number };
}

export function settingsFor(quick: boolean): Settings {
  return quick
    ? {
        quick,
        connections: 10,
        durationSec: 1,
        amount: 200,
        reps: 1,
        warmupSec: 0,
        timingSamples: 3,
        refreshes: 3,
        burst: { count: 200, upstreamLatencyMs: 200 },
      }
    : {
        quick,
        connections: 20,
        durationSec: 5,
        reps: 3,
        warmupSec: 1,
        timingSamples: 40,
        refreshes: 500,
        burst: { count: 200, upstreamLatencyMs: 200 },
      };
}

/** A load spec's duration fields for these settings. */
export function roundLength(settings: Settings, amount = settings.amount): { durationSec: number; amount?: number } {
  return amount ? { durationSec: settings.durationSec, amount } : { durationSec: settings.durationSec };
}
