/**
 * How a target is decided when two cores are shared with the load generator and with whatever
 * else the machine runs: from repeated, interleaved measurements, never from one figure.
 *
 * Each target reduces its repetitions to a list of values (usually one ratio per repetition,
 * the two sides measured back to back so drift cancels), takes their median, and a
 * distribution-free confidence interval for that median from order statistics: with n values,
 * [k-th smallest, k-th largest] covers the true median with probability 1 - 2 P(Bin(n, 1/2) < k).
 * The narrowest interval (largest k) that still reaches CONFIDENCE is used (5 values: min to
 * max, 93.8 %; 8 values: 2nd to 7th, 93.0 %).
 * A verdict is PASS when the whole interval meets the target, FAIL when the whole interval
 * misses it, and INCONCLUSIVE when the interval straddles the threshold or too few values
 * reach the confidence: a target sitting on its threshold is then called wrongly at most
 * (1 - CONFIDENCE) / 2 of the time, instead of half the time.
 */

/** Two-sided confidence the interval of a median must reach before a verdict is decided. */
const CONFIDENCE = 0.9;

export interface Interval {
  median: number;
  low: number;
  high: number;
  n: number;
  /** Coverage of [low, high] for the true median (0 when n is too small for any). */
  confidence: number;
}

export type Decision = 'PASS' | 'FAIL' | 'INCONCLUSIVE';

/** One target's line in the results: what was measured and the decision (or 'info' for a figure with no target). */
export interface Verdict {
  target: string;
  measured: string;
  verdict: Decision | 'info';
}

/** P(Bin(n, 1/2) <= j), in log space so n in the thousands does not underflow. */
function binomialHalfCdf(n: number, j: number): number {
  let logCoefficient = 0;
  let total = 0;
  for (let i = 0; i <= j; i += 1) {
    if (i > 0) logCoefficient += Math.log(n - i + 1) - Math.log(i);
    total += Math.exp(logCoefficient - n * Math.LN2);
  }
  return total;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** The median of `values` and its order-statistic interval at `confidence` (or the widest there is). */
export function medianInterval(values: readonly number[], confidence = CONFIDENCE): Interval {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((x, y) => x - y);
  const n = sorted.length;
  if (n === 0) return { median: NaN, low: NaN, high: NaN, n: 0, confidence: 0 };
  // Coverage of [x(k), x(n+1-k)] is 1 - 2 P(Bin <= k-1); take the largest k that keeps it.
  let k = 1;
  while (k + 1 <= Math.floor((n + 1) / 2) && 1 - 2 * binomialHalfCdf(n, k) >= confidence) k += 1;
  const coverage = Math.max(0, 1 - 2 * binomialHalfCdf(n, k - 1));
  return { median: median(sorted), low: sorted[k - 1] ?? NaN, high: sorted[n - k] ?? NaN, n, confidence: coverage };
}

/** Ratios a[i] / b[i] of values measured back to back (same repetition). */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  const n = Math.min(a.length, b.length);
  return Array.from({ length: n }, (_, i) => (a[i] ?? NaN) / (b[i] ?? NaN));
}

/**
 * The verdict for an interval against a bound: `atMost` (value must not exceed it), `atLeast`,
 * or both (a band). PASS and FAIL need the whole interval on one side and enough confidence.
 */
export function decide(interval: Interval, bound: { atMost?: number; atLeast?: number }, confidence = CONFIDENCE): Decision {
  if (interval.n === 0 || interval.confidence < confidence) return 'INCONCLUSIVE';
  const { atMost = Infinity, atLeast = -Infinity } = bound;
  if (interval.low >= atLeast && interval.high <= atMost) return 'PASS';
  if (interval.low > atMost || interval.high < atLeast) return 'FAIL';
  return 'INCONCLUSIVE';
}

/** `1.23x [1.10, 1.31]` style: the median and its interval, with `digits` decimals. */
export function formatInterval(interval: Interval, digits = 2, unit = ''): string {
  if (interval.n === 0) return 'no data';
  const f = (v: number) => `${v.toFixed(digits)}${unit}`;
  const spread = interval.n > 1 ? ` [${f(interval.low)}, ${f(interval.high)}]` : '';
  return `${f(interval.median)}${spread}`;
}
