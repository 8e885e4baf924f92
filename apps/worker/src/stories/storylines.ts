/**
 * Storylines: a refresh's groups linked to the storylines they continue (the share of shared
 * units), so one story keeps one id while it runs; a group that continues a storyline another
 * group continues better starts its own, with that one as its parent (a split).
 */
import type { DetectedGroup, PreparedPost } from './detect.js';
import type { StoryOptions } from './options.js';

export interface Storyline {
  id: string;
  parentId?: string;
  /** The units of its last detection, strongest first. */
  units: string[];
  /** Distinct authors per unit, summed over its detections: what its title and terms are drawn from. */
  weights: Record<string, number>;
  postIds: string[];
  authors: string[];
  /** Its posts' tokens and contracts, with the number of posts naming each. */
  tokens: Record<string, number>;
  contracts: Record<string, number>;
  firstPoster: string;
  firstSeenMs: number;
  lastSeenMs: number;
  peakMs: number;
  /** The end of the last interval it was detected in. */
  detectedMs: number;
  score: number;
  previousScore: number;
  peakScore: number;
  /** Its score at each refresh since it began: [interval end, score]. */
  scores: [number, number][];
  polaritySum: number;
}

export interface LinkContext {
  options: StoryOptions;
  atMs: number;
  /** The post's id to the storyline that holds it: a post joins one story, once. */
  assigned: Map<string, string>;
  newId: (group: DetectedGroup) => string;
  polarity: (post: PreparedPost) => number;
  /** The interval's counted posts: a live storyline not detected in it still gathers those that match it. */
  span: readonly PreparedPost[];
}

function overlap(units: readonly string[], other: readonly string[]): number {
  const set = new Set(other);
  const shared = units.filter((unit) => set.has(unit)).length;
  return shared / Math.max(1, Math.min(units.length, other.length));
}

/** A group's score: its distinct authors in the span, times the log of its mean z over its three strongest units. */
export function groupScore(group: DetectedGroup): number {
  const authors = new Set(group.posts.map((post) => post.author)).size;
  const top = group.units.slice(0, 3);
  const meanZ = top.reduce((sum, unit) => sum + unit.z, 0) / Math.max(1, top.length);
  return Math.round(authors * Math.log2(2 + meanZ) * 100) / 100;
}

/** Links the interval's groups to the live storylines, updates them, and ages those not seen. */
export function linkGroups(storylines: Storyline[], groups: readonly DetectedGroup[], context: LinkContext): Storyline[] {
  const { options, atMs } = context;
  const live = storylines.filter((line) => line.detectedMs >= atMs - options.linkGapMs);
  const claims = groups.map((group) => {
    const units = group.units.map((unit) => unit.unit);
    let best: Storyline | undefined;
    let bestOverlap = 0;
    for (const line of live) {
      const share = overlap(units, line.units);
      if (share >= options.linkOverlap && share > bestOverlap) [best, bestOverlap] = [line, share];
    }
    return { group, best, share: bestOverlap, score: groupScore(group) };
  });
  const winner = new Map<string, (typeof claims)[number]>();
  for (const claim of claims) {
    if (!claim.best) continue;
    const held = winner.get(claim.best.id);
    if (!held || claim.share > held.share || (claim.share === held.share && claim.score > held.score)) winner.set(claim.best.id, claim);
  }
  const touched = new Set<Storyline>();
  const result = [...storylines];
  for (const claim of claims) {
    const continues = claim.best && winner.get(claim.best.id) === claim ? claim.best : undefined;
    const posts = claim.group.posts.filter((post) => (context.assigned.get(post.id) ?? continues?.id) === continues?.id);
    // A new storyline needs its own posts: those already told by another story do not make a second one.
    if (!continues && new Set(posts.map((post) => post.author)).size < options.minAuthors) continue;
    const group = { ...claim.group, posts };
    const line = continues ?? startLine(group, context, claim.best?.id);
    if (!continues) result.push(line);
    absorb(line, group, claim.score, context);
    touched.add(line);
  }
  for (const line of result) {
    if (touched.has(line)) continue;
    if (line.detectedMs >= atMs - options.linkGapMs) gather(line, context);
    fade(line, atMs);
  }
  return result.filter((line) => line.detectedMs >= atMs - options.windowMs);
}

/** A live storyline's new posts between its detections: those that contain two of its units and belong to no story yet. */
function gather(line: Storyline, context: LinkContext): void {
  const units = new Set(line.units.filter((unit) => !unit.startsWith('$')));
  const matching = context.span.filter(
    (post) => !context.assigned.has(post.id) && post.units.filter((unit) => units.has(unit)).length >= Math.min(2, units.size),
  );
  addPosts(line, matching, context);
}

function startLine(group: DetectedGroup, context: LinkContext, parentId: string | undefined): Storyline {
  const first = group.posts[0] as PreparedPost;
  return {
    id: context.newId(group),
    ...(parentId === undefined ? {} : { parentId }),
    units: [],
    weights: {},
    postIds: [],
    authors: [],
    tokens: {},
    contracts: {},
    firstPoster: first.author,
    firstSeenMs: first.publishedMs,
    lastSeenMs: first.publishedMs,
    peakMs: context.atMs,
    detectedMs: context.atMs,
    score: 0,
    previousScore: 0,
    peakScore: 0,
    scores: [],
    polaritySum: 0,
  };
}

function absorb(line: Storyline, group: DetectedGroup, score: number, context: LinkContext): void {
  const { atMs } = context;
  line.units = group.units.map((unit) => unit.unit);
  for (const unit of group.units) line.weights[unit.unit] = (line.weights[unit.unit] ?? 0) + unit.authors;
  addPosts(line, group.posts, context);
  line.previousScore = line.score;
  line.score = score;
  line.detectedMs = atMs;
  if (score > line.peakScore) [line.peakScore, line.peakMs] = [score, atMs];
  line.scores.push([atMs, score]);
}

function addPosts(line: Storyline, posts: readonly PreparedPost[], { assigned, polarity }: LinkContext): void {
  const authors = new Set(line.authors);
  for (const post of posts) {
    if (assigned.has(post.id)) continue;
    assigned.set(post.id, line.id);
    line.postIds.push(post.id);
    authors.add(post.author);
    for (const token of post.tokens) line.tokens[token] = (line.tokens[token] ?? 0) + 1;
    for (const contract of post.contracts) line.contracts[contract] = (line.contracts[contract] ?? 0) + 1;
    if (post.publishedMs < line.firstSeenMs) [line.firstSeenMs, line.firstPoster] = [post.publishedMs, post.author];
    line.lastSeenMs = Math.max(line.lastSeenMs, post.publishedMs);
    line.polaritySum += polarity(post);
  }
  line.authors = [...authors];
}

/** Not detected in this interval: its score halves, so it sinks in the ranking while it can still be continued. */
function fade(line: Storyline, atMs: number): void {
  line.previousScore = line.score;
  line.score = Math.round(line.score * 50) / 100;
  line.scores.push([atMs, line.score]);
}
