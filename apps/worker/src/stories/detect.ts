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
 * Distinct authors per key, counted author by author: one small set of keys per author instead of
 * a set of authors per key (a span holds ~100,000 pair keys; their sets were most of a refresh's CPU).
 */
function authorsPerKey(posts: readonly PreparedPost[], keysOf: (post: PreparedPost) => Iterable<string>): Map<string, number> {
  const byAuthor = new Map<string, PreparedPost[]>();
  for (const post of posts) {
    const authored = byAuthor.get(post.author);
    if (authored) authored.push(post);
    else byAuthor.set(post.author, [post]);
  }
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  for (const authored of byAuthor.values()) {
    seen.clear();
    for (const post of authored)
      for (const key of keysOf(post))
        if (!seen.has(key)) {
          seen.add(key);
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
  }
  return counts;
}

function* pairsOf(post: PreparedPost, candidate: (unit: string) => boolean): Generator<string> {
  // Pairs grow with the square of a post's units: a long post pairs only its first ones.
  const units = post.units.filter(candidate).slice(0, MAX_PAIR_UNITS);
  for (let i = 0; i < units.length; i += 1)
    for (let j = i + 1; j < units.length; j += 1) yield pairKey(units[i] as string, units[j] as string);
}

/** Scores the span's units and pairs, teaches the baseline the interval, and returns the groups of bursting units. */
export function detectInterval(posts: readonly PreparedPost[], baseline: HashedBaseline, options: StoryOptions): DetectedGroup[] {
  const units = authorsPerKey(posts, (post) => post.units);
  const candidate = (unit: string) => (units.get(unit) ?? 0) >= PAIR_CANDIDATE_AUTHORS;
  const pairs = authorsPerKey(posts, (post) => pairsOf(post, candidate));

  // A busier stream than usual lifts every word with it: counts are scored as if the stream had its usual size.
  const total = new Set(posts.map((post) => post.author)).size;
  const damp = Math.sqrt(Math.min(1, Math.max(baseline.meanOf(TOTAL_KEY), options.minAuthors) / Math.max(1, total)));
  const bursting: BurstUnit[] = [];
  for (const [unit, authors] of units) {
    if (authors < options.minAuthors) continue;
    const z = baseline.zScore(unit, authors * damp);
    if (z >= options.zMin) bursting.push({ unit, authors, z });
  }
  const pairZ = new Map<string, number>();
  for (const [key, authors] of pairs) if (authors >= options.minPairAuthors) pairZ.set(key, baseline.zScore(key, authors * damp));
  baseline.add(TOTAL_KEY, total);
  for (const [key, authors] of units) baseline.add(key, authors);
  for (const [key, authors] of pairs) baseline.add(key, authors);
  baseline.close();

  bursting.sort((a, b) => b.z - a.z || b.authors - a.authors || a.unit.localeCompare(b.unit));
  const nodes = bursting.slice(0, MAX_BURSTING);
  const groups = components(nodes, (a, b) => {
    const key = pairKey(a.unit, b.unit);
    const shared = pairs.get(key) ?? 0;
    return (
      shared >= options.minPairAuthors &&
      shared >= options.pairShare * Math.min(a.authors, b.authors) &&
      (pairZ.get(key) ?? 0) >= options.zMin
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
