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

/** The baseline's key for the span's distinct authors overall (no unit can be spelled so). */
const TOTAL_KEY = '\u0000total';

const pairKey = (a: string, b: string) => (a < b ? `${a}\u0001${b}` : `${b}\u0001${a}`);

/**
 * Distinct authors per pair of unit numbers, in an open-addressing table over typed arrays: each
 * slot remembers the last author counted, so an author's repeats cost one probe and no set. (A
 * span holds ~100,000 pairs; their string keys, then a Map of numbers, were most of a refresh's CPU.)
 */
class PairTable {
  readonly lo: Int32Array;
  readonly hi: Int32Array;
  readonly authors: Int32Array;
  private readonly last: Int32Array;
  private readonly mask: number;

  constructor(pairs: number) {
    let size = 1024;
    while (size < pairs * 2) size *= 2;
    this.mask = size - 1;
    this.lo = new Int32Array(size).fill(-1);
    this.hi = new Int32Array(size);
    this.authors = new Int32Array(size);
    this.last = new Int32Array(size).fill(-1);
  }

  /** The slot of the pair (a < b): its own, or the empty one it would take. */
  slot(a: number, b: number): number {
    const { lo, hi, mask } = this;
    let i = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) & mask;
    while (lo[i] !== -1 && (lo[i] !== a || hi[i] !== b)) i = (i + 1) & mask;
    return i;
  }

  count(a: number, b: number, author: number): void {
    const i = a < b ? this.slot(a, b) : this.slot(b, a);
    if (this.lo[i] === -1) [this.lo[i], this.hi[i]] = a < b ? [a, b] : [b, a];
    if (this.last[i] === author) return;
    this.last[i] = author;
    this.authors[i] = (this.authors[i] as number) + 1;
  }

  /** The pair's slot, or -1 when no author wrote both. */
  find(a: number, b: number): number {
    const i = a < b ? this.slot(a, b) : this.slot(b, a);
    return this.lo[i] === -1 ? -1 : i;
  }
}

/** The span's distinct authors per unit (by its number, its index in `names`) and per pair of a post's candidate units. */
interface SpanCounts {
  names: string[];
  ids: Map<string, number>;
  unitAuthors: Int32Array;
  pairs: PairTable;
}

function countSpan(posts: readonly PreparedPost[]): SpanCounts {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const byAuthor = new Map<string, number[][]>();
  for (const post of posts) {
    const unitIds = post.units.map((unit) => {
      let id = ids.get(unit);
      if (id === undefined) {
        id = names.length;
        ids.set(unit, id);
        names.push(unit);
      }
      return id;
    });
    const authored = byAuthor.get(post.author);
    if (authored) authored.push(unitIds);
    else byAuthor.set(post.author, [unitIds]);
  }
  const authored = [...byAuthor.values()];
  const unitAuthors = new Int32Array(names.length);
  const lastAuthor = new Int32Array(names.length).fill(-1);
  authored.forEach((unitLists, author) => {
    for (const unitIds of unitLists)
      for (const id of unitIds)
        if (lastAuthor[id] !== author) {
          lastAuthor[id] = author;
          unitAuthors[id] = (unitAuthors[id] as number) + 1;
        }
  });
  // Pairs grow with the square of a post's units: a long post pairs only its first candidates.
  const candidatesOf = authored.map((unitLists) =>
    unitLists.map((unitIds) => unitIds.filter((id) => (unitAuthors[id] as number) >= PAIR_CANDIDATE_AUTHORS).slice(0, MAX_PAIR_UNITS)),
  );
  const pairCount = candidatesOf.flat().reduce((sum, candidates) => sum + (candidates.length * (candidates.length - 1)) / 2, 0);
  const pairs = new PairTable(pairCount);
  candidatesOf.forEach((lists, author) => {
    for (const candidates of lists)
      for (let i = 0; i < candidates.length; i += 1)
        for (let j = i + 1; j < candidates.length; j += 1) pairs.count(candidates[i] as number, candidates[j] as number, author);
  });
  return { names, ids, unitAuthors, pairs };
}

/** Scores the span's units and pairs, teaches the baseline the interval, and returns the groups of bursting units. */
export function detectInterval(posts: readonly PreparedPost[], baseline: HashedBaseline, options: StoryOptions): DetectedGroup[] {
  const { names, ids, unitAuthors, pairs } = countSpan(posts);

  // A busier stream than usual lifts every word with it: counts are scored as if the stream had its usual size.
  const total = new Set(posts.map((post) => post.author)).size;
  const damp = Math.sqrt(Math.min(1, Math.max(baseline.meanOf(TOTAL_KEY), options.minAuthors) / Math.max(1, total)));
  const bursting: BurstUnit[] = [];
  for (let id = 0; id < names.length; id += 1) {
    const authors = unitAuthors[id] as number;
    if (authors < options.minAuthors) continue;
    const unit = names[id] as string;
    const z = baseline.zScore(unit, authors * damp);
    if (z >= options.zMin) bursting.push({ unit, authors, z });
  }
  const pairZ = new Float64Array(pairs.lo.length);
  baseline.add(TOTAL_KEY, total);
  for (let id = 0; id < names.length; id += 1) baseline.add(names[id] as string, unitAuthors[id] as number);
  for (let slot = 0; slot < pairs.lo.length; slot += 1) {
    if (pairs.lo[slot] === -1) continue;
    const key = pairKey(names[pairs.lo[slot] as number] as string, names[pairs.hi[slot] as number] as string);
    const authors = pairs.authors[slot] as number;
    // The z-scores read the baseline before this interval: `add` only gathers the interval's counts until `close`.
    if (authors >= options.minPairAuthors) pairZ[slot] = baseline.zScore(key, authors * damp);
    baseline.add(key, authors);
  }
  baseline.close();

  bursting.sort((a, b) => b.z - a.z || b.authors - a.authors || a.unit.localeCompare(b.unit));
  const nodes = bursting.slice(0, MAX_BURSTING);
  const groups = components(nodes, (a, b) => {
    const slot = pairs.find(ids.get(a.unit) as number, ids.get(b.unit) as number);
    const shared = slot === -1 ? 0 : (pairs.authors[slot] as number);
    return (
      shared >= options.minPairAuthors &&
      shared >= options.pairShare * Math.min(a.authors, b.authors) &&
      (slot === -1 ? 0 : (pairZ[slot] as number)) >= options.zMin
    );
  });
  return assignPosts(groups, posts, options);
}

/** Union-find over the bursting units; groups in the order of their strongest unit. */
function components(nodes: readonly BurstUnit[], linked: (a: BurstUnit, b: BurstUnit) => boolean): BurstUnit[][] {
  const parent = nodes.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  for (let i = 0; i < nodes.length; i += 1)
    for (let j = i + 1; j < nodes.length; j += 1) if (linked(nodes[i] as BurstUnit, nodes[j] as BurstUnit)) parent[root(j)] = root(i);
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
