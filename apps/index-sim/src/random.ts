// Seeded randomness. Every generated value is a pure function of (seed, a label, an index), so
// two simulators with the same seed serve byte-identical data and a post never changes once
// it exists, whatever order the data is requested in.

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

/** mulberry32: tiny, fast and good enough for fake data (not for anything secret). */
export function mulberry32(state: number): Rng {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the joined parts, then a final avalanche so near-identical labels diverge. */
export function hash(...parts: ReadonlyArray<string | number>): number {
  const text = parts.join('\u001f');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A generator dedicated to one labelled thing, e.g. rngFor(seed, 'post', 1234). */
export function rngFor(...parts: ReadonlyArray<string | number>): Rng {
  return mulberry32(hash(...parts));
}

/** One uniform number in [0, 1) for a labelled thing, without keeping a generator. */
export function unit(...parts: ReadonlyArray<string | number>): number {
  return rngFor(...parts)();
}

export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new RangeError('pick from an empty list');
  return item;
}

/** Standard normal via Box-Muller; 1 - rng() keeps the logarithm away from zero. */
export function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/**
 * Weighted choice in O(log n): build once from the weights, then draw many times. Used for
 * post authors (10,000 draws per page of the benchmark dataset) and token popularity.
 */
export class WeightedPicker<T> {
  private readonly cumulative: number[] = [];
  private readonly total: number;

  constructor(
    private readonly items: readonly T[],
    weight: (item: T) => number,
  ) {
    let sum = 0;
    for (const item of items) this.cumulative.push((sum += Math.max(0, weight(item))));
    if (items.length === 0 || sum <= 0) throw new RangeError('WeightedPicker needs a non-empty list with positive weights');
    this.total = sum;
  }

  draw(rng: Rng): T {
    const target = rng() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cumulative[mid] ?? 0) > target) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo] as T;
  }
}
