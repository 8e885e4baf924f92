/**
 * SigniTrend's significance baselines (Schubert, Weiler, Kriegel, KDD 2014): for every unit and
 * co-occurring pair, an exponentially weighted moving average and variance of its count per
 * interval, kept in a fixed hashed table (each key in two buckets; the lower estimate is used, as
 * in a count-min sketch), so memory does not grow with the vocabulary and the state serialises
 * as two arrays. Here the count is of distinct authors, never of posts.
 */

export interface BaselineOptions {
  /** Buckets in the table (a power of two). */
  buckets: number;
  /** The EWMA's weight of one interval (SigniTrend's α). */
  alpha: number;
  /** The noise floor (SigniTrend's β): a count below it is never significant, and it damps the z of rare keys. */
  beta: number;
}

/** The two arrays, base64 in JSON or their bytes as they are (the worker's Redis hash). */
export interface SerializedBaseline {
  mean: string | Uint8Array;
  variance: string | Uint8Array;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The second hash's start: FNV's offset with another seed. */
const SECOND_OFFSET = (FNV_OFFSET ^ 0x9e3779b9) >>> 0;

/** FNV-1a's last mix, so that close keys spread over the table. */
function finish(h: number): number {
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

/**
 * The key's two hashes (FNV-1a from two seeds), both in one pass; a pair is hashed as the text
 * `first\u0001second` would be, without building it (new pairs are thousands a refresh).
 */
function hashes(first: string, second: string | undefined): [number, number] {
  let h = FNV_OFFSET;
  let g = SECOND_OFFSET;
  for (let i = 0; i < first.length; i += 1) {
    const code = first.charCodeAt(i);
    h = Math.imul(h ^ code, FNV_PRIME);
    g = Math.imul(g ^ code, FNV_PRIME);
  }
  if (second !== undefined) {
    h = Math.imul(h ^ 1, FNV_PRIME);
    g = Math.imul(g ^ 1, FNV_PRIME);
    for (let i = 0; i < second.length; i += 1) {
      const code = second.charCodeAt(i);
      h = Math.imul(h ^ code, FNV_PRIME);
      g = Math.imul(g ^ code, FNV_PRIME);
    }
  }
  return [finish(h), finish(g)];
}

export class HashedBaseline {
  /** The averages and variances; a copy shares them with its original until its first `close`. */
  mean: Float32Array;
  variance: Float32Array;
  private readonly mask: number;
  /** The interval's counts, all zero between intervals (so a copy shares them too). */
  private pending: Float32Array;
  /** Whether `mean` and `variance` are another baseline's: `close` then writes new arrays. */
  private shared = false;

  /** From the saved arrays, or sharing another baseline's (a copy to run an interval on: its first `close` writes its own). */
  constructor(
    private readonly options: BaselineOptions,
    saved?: SerializedBaseline | HashedBaseline,
  ) {
    this.mask = options.buckets - 1;
    if (saved instanceof HashedBaseline) {
      // Whichever of the two closes an interval first writes new arrays: neither sees the other's.
      [this.mean, this.variance, this.pending, this.shared, saved.shared] = [saved.mean, saved.variance, saved.pending, true, true];
      return;
    }
    this.mean = saved ? floats(saved.mean, options.buckets) : new Float32Array(options.buckets);
    this.variance = saved ? floats(saved.variance, options.buckets) : new Float32Array(options.buckets);
    this.pending = new Float32Array(options.buckets);
  }

  /**
   * The key's two buckets, or the pair's (`first` sorts before `second`): the same key has the same
   * buckets for the table's life (the engine keeps them per unit and pair).
   */
  bucketsOf(first: string, second?: string): [number, number] {
    const [h, g] = hashes(first, second);
    return [h & this.mask, g & this.mask];
  }

  /** The key's bucket least shared with other keys: the one with the lower average (as a count-min sketch reads). */
  private cleanest(a: number, b: number): number {
    return (this.mean[a] as number) <= (this.mean[b] as number) ? a : b;
  }

  /** How unusual `count` is for `key`, against the baseline before this interval. */
  zScore(key: string, count: number): number {
    const [a, b] = this.bucketsOf(key);
    return this.zScoreAt(a, b, count);
  }

  /** `zScore` for the key in buckets `a` and `b`. */
  zScoreAt(a: number, b: number, count: number): number {
    const bucket = this.cleanest(a, b);
    const { beta } = this.options;
    return (count - Math.max(this.mean[bucket] as number, beta)) / (Math.sqrt(this.variance[bucket] as number) + beta);
  }

  /** The key's moving average (the lower of its buckets'). */
  meanOf(key: string): number {
    const [a, b] = this.bucketsOf(key);
    return this.mean[this.cleanest(a, b)] as number;
  }

  /** Adds one key's count to the interval being closed. */
  add(key: string, count: number): void {
    const [a, b] = this.bucketsOf(key);
    this.addAt(a, b, count);
  }

  /** `add` for the key in buckets `a` and `b` (both the same: twice to it). */
  addAt(a: number, b: number, count: number): void {
    const { pending } = this;
    pending[a] = (pending[a] as number) + count;
    pending[b] = (pending[b] as number) + count;
  }

  /** Ends the interval: every bucket's average and variance move towards its count (zero for most). */
  close(): void {
    const { alpha } = this.options;
    const { mean, variance, pending } = this;
    // Shared arrays stay as they are (the baseline copied from is as stored); the new ones start as zeros.
    const [nextMean, nextVariance] = this.shared ? [new Float32Array(mean.length), new Float32Array(variance.length)] : [mean, variance];
    for (let i = 0; i < mean.length; i += 1) {
      const delta = (pending[i] as number) - (mean[i] as number);
      if (delta === 0 && variance[i] === 0) {
        nextMean[i] = mean[i] as number;
        continue;
      }
      nextMean[i] = (mean[i] as number) + alpha * delta;
      nextVariance[i] = (1 - alpha) * ((variance[i] as number) + alpha * delta * delta);
    }
    [this.mean, this.variance, this.shared] = [nextMean, nextVariance, false];
    pending.fill(0);
  }

  serialize(): { mean: string; variance: string } {
    return { mean: base64(this.mean), variance: base64(this.variance) };
  }

  /** The arrays' bytes, not copied: valid while this baseline does not change. */
  bytes(): { mean: Buffer; variance: Buffer } {
    return { mean: bytesOf(this.mean), variance: bytesOf(this.variance) };
  }
}

const bytesOf = (array: Float32Array): Buffer => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

const base64 = (array: Float32Array): string => bytesOf(array).toString('base64');

function floats(encoded: string | Uint8Array, length: number): Float32Array {
  const bytes = typeof encoded === 'string' ? Buffer.from(encoded, 'base64') : encoded;
  const array = new Float32Array(length);
  if (bytes.byteLength === length * 4) new Uint8Array(array.buffer).set(bytes);
  return array;
}
