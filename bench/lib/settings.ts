/** How long each part runs: the full run (minutes, for the table) and --quick (seconds, for CI). */
export interface Settings {
  quick: boolean;
  /** Concurrent connections of every read round. */
  connections: number;
  /** Seconds per measured round. */
  durationSec: number;
  /** Quick mode: a fixed number of requests per round instead of a duration. */
  amount?: number;
  /**
   * Interleaved repetitions of the whole read matrix (every second one in reverse order). Every
   * verdict is decided on the interval of a median over these: 8 gives the 2nd smallest to the
   * 2nd largest at 93 %, so one disturbed round on either side does not decide a verdict.
   */
  reps: number;
  /** Unrecorded seconds per (server, read) before the first repetition; 0 for none. */
  warmupSec: number;
  /** Seconds per open-loop round at equal offered load (the p99 targets). */
  equalLoadSec: number;
  /** Sequential logins per kind for the unknown-email / wrong-password timing. */
  timingSamples: number;
  /** News refreshes in the worker child (CPU and RSS). */
  refreshes: number;
  /**
   * Simultaneous requests for one uncached username, the upstream's latency meanwhile, and how
   * many such bursts (each for another username nobody has asked for).
   */
  burst: { count: number; upstreamLatencyMs: number; repeats: number };
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
        equalLoadSec: 1,
        timingSamples: 3,
        refreshes: 3,
        burst: { count: 200, upstreamLatencyMs: 200, repeats: 1 },
      }
    : {
        quick,
        connections: 20,
        durationSec: 2,
        reps: 8,
        warmupSec: 1,
        equalLoadSec: 2,
        timingSamples: 60,
        refreshes: 500,
        burst: { count: 200, upstreamLatencyMs: 200, repeats: 9 },
      };
}

/** A load spec's duration fields for these settings. */
export function roundLength(settings: Settings, amount = settings.amount): { durationSec: number; amount?: number } {
  return amount ? { durationSec: settings.durationSec, amount } : { durationSec: settings.durationSec };
}
