/**
 * One interval's detection: distinct authors per unit and per co-occurring pair over the span,
 * their z-scores against the baselines (then the baselines learn the interval), the bursting
 * units, and the co-occurrence graph among them split into groups (connected components over
 * edges that pass the thresholds). Each post joins at most one group.
 */
import type { HashedBaseline } from './baseline.js';
import type { StoryOptions } from './options.js';

export interface PreparedPost {
  id: string;
  author: string;
  publishedMs: number;
  text: string;
  units: readonly string[];
  tokens: readonly string[];
  contracts: readonly string[];
  /** Its units' numbers in a `UnitIndex` (that index's generation): set at its first interval, kept while the index is. */
  numbered?: { generation: number; ids: Int32Array };
}

export interface BurstUnit {
  unit: string;
  authors: number;
  z: number;
}

export interface DetectedGroup {
  /** Strongest first. */
  units: BurstUnit[];
  posts: PreparedPost[];
}

/** A candidate for pairs: a unit at least two authors wrote in the span. */
const PAIR_CANDIDATE_AUTHORS = 2;
/** A post's candidate units paired with each other, at most (120 pairs). */
const MAX_PAIR_UNITS = 16;
/** Bursting units considered per interval, strongest first: bounds the graph. */
const MAX_BURSTING = 300;
/** A unit index starts again past this many units (a week's vocabulary would grow without end). */
const MAX_INDEXED_UNITS = 1 << 16;
/** The pairs' table keeps at least this many pairs before it may keep only the last interval's. */
const MIN_KEPT_PAIRS = 1 << 14;

/** The baseline's key for the span's distinct authors overall (no unit can be spelled so). */
const TOTAL_KEY = '\u0000total';

let generations = 0;

/** An empty slot: no pair (lo -1), no author counted yet (-1), no authors. */
const EMPTY_SLOT = [-1, 0, -1, 0];

/**
 * `size` empty slots: the first written, then copied onto the next as many and doubled (a rebuild
 * at 10,000 posts has 131,072 slots; writing them one by one cost 8 ms a rebuild, mostly unoptimized).
 */
function emptySlots(size: number): Int32Array<ArrayBuffer> {
  const counts = new Int32Array(size * 4);
  counts.set(EMPTY_SLOT);
  for (let filled = EMPTY_SLOT.length; filled < counts.length; filled *= 2)
    counts.copyWithin(filled, 0, Math.min(filled, counts.length - filled));
  return counts;
}

/**
 * Pairs of unit numbers, in an open-addressing table over typed arrays, kept from interval to
 * interval with each pair's buckets in the baseline: a span shares most of its pairs with the
 * interval before, and building and hashing their strings (~28,000 at 10,000 posts) was most of a
 * refresh's CPU. An interval's distinct authors per pair are counted in it too: each slot
 * remembers the last author counted, so an author's repeats cost one probe and no set. What the
 * count touches lies side by side (16 bytes a slot), the buckets apart.
 */
class PairTable {
  /** Per slot: the pair (lo < hi; lo -1: empty), the last author counted (-1: none) and the interval's authors. */
  private counts = new Int32Array(0);
  /** Per slot: the pair's two buckets in the baseline (-1: not hashed yet). */
  private buckets = new Int32Array(0);
  /** This interval's slots, in the order first counted. */
  touched = new Int32Array(0);
  touchedCount = 0;
  private entries = 0;
  private mask = -1;
  /** Whether an interval's counts are not all taken yet (one that threw before it took them: the next sets them to zero). */
  private counting = false;

  /**
   * Starts an interval of at most `pairs` distinct pairs (the last interval's counts went back to
   * zero as they were taken); past half as many pairs again as the last interval had, the table
   * keeps only its pairs (most of the next span's: ~4,000 of ~28,000 are new each interval at 10,000 posts).
   */
  begin(pairs: number): void {
    if (this.mask === -1) this.rebuild(1024, 0);
    else if (this.entries > Math.max(MIN_KEPT_PAIRS, 1.5 * this.touchedCount)) {
      let size = 1024;
      while (size < this.touchedCount * 4) size *= 2;
      this.rebuild(size, 0);
    } else if (this.counting) for (let k = 0; k < this.touchedCount; k += 1) this.take(this.touched[k] as number);
    this.counting = true;
    this.touchedCount = 0;
    if (this.touched.length < pairs) this.touched = new Int32Array(pairs);
  }

  /**
   * A table of `size` slots (a power of two) with the touched pairs (all the pairs, when `all`
   * is 1), their counts moved with them only then: growing within an interval keeps everything.
   */
  private rebuild(size: number, all: 0 | 1): void {
    const [counts, buckets] = [this.counts, this.buckets];
    this.mask = size - 1;
    this.counts = emptySlots(size);
    this.buckets = new Int32Array(size * 2);
    this.entries = 0;
    const move = (from: number, withCounts: boolean): number => {
      const i = this.slot(counts[from * 4] as number, counts[from * 4 + 1] as number);
      const to = this.counts;
      const at = from * 4;
      to[i * 4] = counts[at] as number;
      to[i * 4 + 1] = counts[at + 1] as number;
      if (withCounts) {
        to[i * 4 + 2] = counts[at + 2] as number;
        to[i * 4 + 3] = counts[at + 3] as number;
      }
      this.buckets[i * 2] = buckets[from * 2] as number;
      this.buckets[i * 2 + 1] = buckets[from * 2 + 1] as number;
      this.entries += 1;
      return i;
    };
    if (all === 1) {
      for (let from = 0; from < counts.length / 4; from += 1) if (counts[from * 4] !== -1) move(from, true);
      for (let k = 0; k < this.touchedCount; k += 1) {
        const from = this.touched[k] as number;
        this.touched[k] = this.slot(counts[from * 4] as number, counts[from * 4 + 1] as number);
      }
    } else for (let k = 0; k < this.touchedCount; k += 1) move(this.touched[k] as number, false);
  }

  /** The slot of the pair (a < b): its own, or the empty one it would take. */
  private slot(a: number, b: number): number {
    const { counts, mask } = this;
    let i = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) & mask;
    while (counts[i * 4] !== -1 && (counts[i * 4] !== a || counts[i * 4 + 1] !== b)) i = (i + 1) & mask;
    return i;
  }

  count(a: number, b: number, author: number): void {
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    let i = this.slot(lo, hi);
    let at = i * 4;
    if (this.counts[at] === -1) {
      if ((this.entries + 1) * 2 > this.mask + 1) {
        this.rebuild((this.mask + 1) * 2, 1);
        i = this.slot(lo, hi);
        at = i * 4;
      }
      [this.counts[at], this.counts[at + 1]] = [lo, hi];
      this.buckets[i * 2] = -1;
      this.entries += 1;
    }
    const { counts } = this;
    if (counts[at + 2] === author) return;
    if (counts[at + 3] === 0) {
      this.touched[this.touchedCount] = i;
      this.touchedCount += 1;
    }
    counts[at + 2] = author;
    counts[at + 3] = (counts[at + 3] as number) + 1;
  }

  /** The pair's slot, or -1 when no author wrote both in this interval. */
  find(a: number, b: number): number {
    const i = a < b ? this.slot(a, b) : this.slot(b, a);
    return this.counts[i * 4] === -1 || this.counts[i * 4 + 3] === 0 ? -1 : i;
  }

  /** The pair in `slot` (from `touched` or `find`): its units, buckets and authors in this interval. */
  lo = (slot: number) => this.counts[slot * 4] as number;
  hi = (slot: number) => this.counts[slot * 4 + 1] as number;
  authors = (slot: number) => this.counts[slot * 4 + 3] as number;
  bucketA = (slot: number) => this.buckets[slot * 2] as number;
  bucketB = (slot: number) => this.buckets[slot * 2 + 1] as number;

  /** Every count of the interval taken. */
  finish(): void {
    this.counting = false;
  }

  /** The pair's authors in this interval, its count then back to zero for the next (so no more `find` in this one). */
  take(slot: number): number {
    const authors = this.counts[slot * 4 + 3] as number;
    this.counts[slot * 4 + 2] = -1;
    this.counts[slot * 4 + 3] = 0;
    return authors;
  }

  setBuckets(slot: number, [a, b]: [number, number]): void {
    this.buckets[slot * 2] = a;
    this.buckets[slot * 2 + 1] = b;
  }
}

/**
 * Numbers for units, and their buckets in the baseline, kept by the engine from interval to
 * interval (and shared with its copies: the same unit or pair always has the same buckets, so
 * what one engine adds changes nothing another counts). It starts again, numbers and pairs,
 * when it holds more than `MAX_INDEXED_UNITS` units.
 */
export class UnitIndex {
  names: string[] = [];
  private ids = new Map<string, number>();
  private bucketA = new Int32Array(1024);
  private bucketB = new Int32Array(1024);
  pairs = new PairTable();
  generation = (generations += 1);

  get size(): number {
    return this.names.length;
  }

  /** Starts again if it has grown too large: to call before an interval, never during one. */
  trim(): void {
    if (this.names.length <= MAX_INDEXED_UNITS) return;
    this.names = [];
    this.ids = new Map();
    this.pairs = new PairTable();
    this.generation = generations += 1;
  }

  idOf(unit: string, baseline: HashedBaseline): number {
    let id = this.ids.get(unit);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(unit, id);
      this.names.push(unit);
      if (id >= this.bucketA.length) {
        const [a, b] = [new Int32Array(this.bucketA.length * 2), new Int32Array(this.bucketA.length * 2)];
        a.set(this.bucketA);
        b.set(this.bucketB);
        [this.bucketA, this.bucketB] = [a, b];
      }
      [this.bucketA[id], this.bucketB[id]] = baseline.bucketsOf(unit);
    }
    return id;
  }

  /** The post's unit numbers, numbered at its first interval in this index. */
  idsOf(post: PreparedPost, baseline: HashedBaseline): Int32Array {
    if (post.numbered?.generation === this.generation) return post.numbered.ids;
    const ids = Int32Array.from(post.units, (unit) => this.idOf(unit, baseline));
    post.numbered = { generation: this.generation, ids };
    return ids;
  }

  bucketsOfUnit(id: number): [number, number] {
    return [this.bucketA[id] as number, this.bucketB[id] as number];
  }

  /** The buckets of the pair in `slot`, hashed from its string at the first interval that has it. */
  pairBuckets(slot: number, baseline: HashedBaseline): void {
    const { pairs } = this;
    if (pairs.bucketA(slot) !== -1) return;
    const [a, b] = [this.names[pairs.lo(slot)] as string, this.names[pairs.hi(slot)] as string];
    pairs.setBuckets(slot, a < b ? baseline.bucketsOf(a, b) : baseline.bucketsOf(b, a));
  }
}

/** The span's distinct authors per unit (by its number in the index) and per pair of a post's candidate units (in the index's pairs). */
interface SpanCounts {
  unitAuthors: Int32Array;
  /** The span's units, in the order first counted. */
  spanUnits: number[];
}

function countSpan(posts: readonly PreparedPost[], index: UnitIndex, baseline: HashedBaseline): SpanCounts {
  const byAuthor = new Map<string, Int32Array[]>();
  for (const post of posts) {
    const unitIds = index.idsOf(post, baseline);
    const authored = byAuthor.get(post.author);
    if (authored) authored.push(unitIds);
    else byAuthor.set(post.author, [unitIds]);
  }
  const authored = [...byAuthor.values()];
  const unitAuthors = new Int32Array(index.size);
  const lastAuthor = new Int32Array(index.size).fill(-1);
  const spanUnits: number[] = [];
  authored.forEach((unitLists, author) => {
    for (const unitIds of unitLists)
      for (const id of unitIds)
        if (lastAuthor[id] !== author) {
          lastAuthor[id] = author;
          if (unitAuthors[id] === 0) spanUnits.push(id);
          unitAuthors[id] = (unitAuthors[id] as number) + 1;
        }
  });
  // Pairs grow with the square of a post's units: a long post pairs only its first candidates.
  let pairCount = 0;
  const candidatesOf = authored.map((unitLists) =>
    unitLists.map((unitIds) => {
      const candidates: number[] = [];
      for (let k = 0; k < unitIds.length && candidates.length < MAX_PAIR_UNITS; k += 1) {
        const id = unitIds[k] as number;
        if ((unitAuthors[id] as number) >= PAIR_CANDIDATE_AUTHORS) candidates.push(id);
      }
      pairCount += (candidates.length * (candidates.length - 1)) / 2;
      return candidates;
    }),
  );
  const { pairs } = index;
  pairs.begin(pairCount);
  candidatesOf.forEach((lists, author) => {
    for (const candidates of lists)
      for (let i = 0; i < candidates.length; i += 1)
        for (let j = i + 1; j < candidates.length; j += 1) pairs.count(candidates[i] as number, candidates[j] as number, author);
  });
  return { unitAuthors, spanUnits };
}

/** Scores the span's units and pairs, teaches the baseline the interval, and returns the groups of bursting units. */
export function detectInterval(
  posts: readonly PreparedPost[],
  baseline: HashedBaseline,
  options: StoryOptions,
  index: UnitIndex = new UnitIndex(),
): DetectedGroup[] {
  index.trim();
  const { unitAuthors, spanUnits } = countSpan(posts, index, baseline);
  const { pairs, names } = index;

  // A busier stream than usual lifts every word with it: counts are scored as if the stream had its usual size.
  const total = new Set(posts.map((post) => post.author)).size;
  const damp = Math.sqrt(Math.min(1, Math.max(baseline.meanOf(TOTAL_KEY), options.minAuthors) / Math.max(1, total)));
  const bursting: { unit: BurstUnit; id: number }[] = [];
  for (const id of spanUnits) {
    const authors = unitAuthors[id] as number;
    if (authors < options.minAuthors) continue;
    const [a, b] = index.bucketsOfUnit(id);
    const z = baseline.zScoreAt(a, b, authors * damp);
    if (z >= options.zMin) bursting.push({ unit: { unit: names[id] as string, authors, z }, id });
  }
  bursting.sort((a, b) => b.unit.z - a.unit.z || b.unit.authors - a.unit.authors || a.unit.unit.localeCompare(b.unit.unit));
  const nodes = bursting.slice(0, MAX_BURSTING);
  // The z-scores read the baseline before this interval: `add` only gathers the interval's counts until `close`.
  const groups = components(
    nodes.map((node) => node.unit),
    (i, j) => {
      const [a, b] = [nodes[i] as (typeof nodes)[number], nodes[j] as (typeof nodes)[number]];
      const slot = pairs.find(a.id, b.id);
      if (slot === -1) return false;
      const shared = pairs.authors(slot);
      if (shared < options.minPairAuthors || shared < options.pairShare * Math.min(a.unit.authors, b.unit.authors)) return false;
      index.pairBuckets(slot, baseline);
      return baseline.zScoreAt(pairs.bucketA(slot), pairs.bucketB(slot), shared * damp) >= options.zMin;
    },
  );

  baseline.add(TOTAL_KEY, total);
  for (const id of spanUnits) {
    const [a, b] = index.bucketsOfUnit(id);
    baseline.addAt(a, b, unitAuthors[id] as number);
  }
  for (let k = 0; k < pairs.touchedCount; k += 1) {
    const slot = pairs.touched[k] as number;
    index.pairBuckets(slot, baseline);
    baseline.addAt(pairs.bucketA(slot), pairs.bucketB(slot), pairs.take(slot));
  }
  pairs.finish();
  baseline.close();
  return assignPosts(groups, posts, options);
}

/** Union-find over the bursting units; groups in the order of their strongest unit. */
function components(nodes: readonly BurstUnit[], linked: (i: number, j: number) => boolean): BurstUnit[][] {
  const parent = nodes.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  for (let i = 0; i < nodes.length; i += 1) for (let j = i + 1; j < nodes.length; j += 1) if (linked(i, j)) parent[root(j)] = root(i);
  const groups = new Map<number, BurstUnit[]>();
  nodes.forEach((node, i) => {
    const key = root(i);
    groups.set(key, [...(groups.get(key) ?? []), node]);
  });
  return [...groups.values()];
}

/**
 * Each post to the group it matches best (the sum of the z-scores of the group's units it
 * contains), if it contains two of them (one for a group of one); groups left with fewer than
 * `minAuthors` authors are dropped.
 */
function assignPosts(groups: readonly BurstUnit[][], posts: readonly PreparedPost[], options: StoryOptions): DetectedGroup[] {
  const groupOf = new Map<string, { group: number; z: number }[]>();
  const needed: number[] = [];
  groups.forEach((group, index) => {
    // A token names what a story is about, not the story: in a story with terms, posts match by their terms.
    const matching = group.some((unit) => !unit.unit.startsWith('$')) ? group.filter((unit) => !unit.unit.startsWith('$')) : group;
    needed[index] = Math.min(2, matching.length);
    for (const unit of matching) groupOf.set(unit.unit, [...(groupOf.get(unit.unit) ?? []), { group: index, z: unit.z }]);
  });
  const members = groups.map((): PreparedPost[] => []);
  for (const post of posts) {
    const matched = new Map<number, { count: number; z: number }>();
    for (const unit of post.units)
      for (const { group, z } of groupOf.get(unit) ?? []) {
        const seen = matched.get(group) ?? { count: 0, z: 0 };
        matched.set(group, { count: seen.count + 1, z: seen.z + z });
      }
    let best = -1;
    let bestZ = 0;
    for (const [group, { count, z }] of matched)
      if (count >= (needed[group] as number) && (z > bestZ || (z === bestZ && group < best))) [best, bestZ] = [group, z];
    if (best >= 0) (members[best] as PreparedPost[]).push(post);
  }
  return groups.flatMap((units, index) => {
    if (units.length < 2) return [];
    const groupPosts = members[index] as PreparedPost[];
    if (new Set(groupPosts.map((post) => post.author)).size < options.minAuthors) return [];
    return [{ units: units.slice(0, options.maxUnits), posts: groupPosts }];
  });
}
