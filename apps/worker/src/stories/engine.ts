/**
 * The story engine (docs/decisions.md, "Stories"): pure, linear in posts, its state a plain
 * object the worker keeps in Redis between refreshes. A refresh closes every whole interval
 * since the last one: counts the span's distinct authors per unit and pair, scores them against
 * the baselines (SigniTrend), groups the bursting units, and links the groups to storylines.
 */
import { HashedBaseline, type SerializedBaseline } from './baseline.js';
import { detectInterval, UnitIndex, type PreparedPost } from './detect.js';
import { DEFAULT_STORY_OPTIONS, type StoryOptions } from './options.js';
import { linkGroups, type Storyline } from './storylines.js';
import { fingerprintOf, isMarkedRepost, unitsOf } from './units.js';

export interface StoryInput {
  id: string;
  author: string;
  text: string;
  publishedMs: number;
  /** Tokens the provider already parsed (its cashtag entities); the text's own cashtags are added. */
  tokens?: readonly string[];
}

export interface StoriesState {
  v: 1;
  /** When the baselines began: no story is told before they have seen `QUIET_INTERVALS`. */
  startedMs: number;
  /** The end of the last closed interval. */
  closedUntil: number;
  baseline: SerializedBaseline;
  storylines: Storyline[];
  /** Fingerprint key → the first post that had it, and when: reposts and near-duplicates count once. */
  fingerprints: [string, string, number][];
}

/** Intervals a new baseline learns before it may call anything a burst (against an empty baseline, everything is one). */
export const QUIET_INTERVALS = 48;
/** A fingerprint shared by two authors marks a repost only when it has this many words ("watching" is not a repost). */
const REPOST_MIN_WORDS = 5;

/** The first post that had a fingerprint, and when. */
interface Fingerprint {
  id: string;
  ms: number;
}

interface Prepared extends PreparedPost {
  duplicate: boolean;
}

export class StoryEngine {
  readonly options: StoryOptions;
  private readonly baseline: HashedBaseline;
  private storylines: Storyline[];
  private startedMs: number;
  private closedUntil: number;
  /**
   * Shared with this engine's last copy until one of them is used again: the copy journals what
   * it changes, and this engine, used again, takes the map back as it was (copying 10,000 entries
   * a refresh was a tenth of the engine's CPU).
   */
  private fingerprints: Map<string, Fingerprint>;
  /** What this engine changed in a map it shares with the engine it was copied from: each key and its entry before. */
  private journal: [string, Fingerprint | undefined][] | undefined;
  /** The copy this engine's map is lent to. */
  private lentTo: StoryEngine | undefined;
  private readonly prepared = new Map<string, Prepared>();
  /** Units' and pairs' numbers and buckets: a cache, shared with this engine's copies. */
  private index = new UnitIndex();

  constructor(
    options: Partial<StoryOptions> = {},
    state?: StoriesState,
    private readonly polarity: (post: PreparedPost) => number = () => 0,
    /** For `copy`: the baseline to share. */
    sharing?: HashedBaseline,
  ) {
    this.options = { ...DEFAULT_STORY_OPTIONS, ...options };
    const usable = state?.v === 1 ? state : undefined;
    this.baseline = new HashedBaseline(this.options, sharing ?? usable?.baseline);
    this.storylines = usable?.storylines ?? [];
    this.startedMs = usable?.startedMs ?? 0;
    this.closedUntil = usable?.closedUntil ?? 0;
    this.fingerprints = new Map((usable?.fingerprints ?? []).map(([key, id, ms]) => [key, { id, ms }]));
  }

  get lines(): readonly Storyline[] {
    return this.storylines;
  }

  /**
   * The time at or before which a refresh up to `nowMs` reads no post (those before its span), or
   * undefined when it reads them all: a first refresh, or one after a longer gap than `warmupIntervals`.
   */
  readsAfter(nowMs: number): number | undefined {
    const { intervalMs, spanIntervals, warmupIntervals } = this.options;
    const lastEnd = Math.floor(nowMs / intervalMs) * intervalMs;
    if (this.closedUntil === 0 || lastEnd - this.closedUntil > warmupIntervals * intervalMs) return undefined;
    return this.closedUntil - intervalMs * spanIntervals;
  }

  /** Takes the map of fingerprints back, as it was, from the copy it is lent to (unless that copy gave it back): that copy keeps its own. */
  private reclaim(): void {
    const borrower = this.lentTo;
    this.lentTo = undefined;
    if (borrower?.journal !== undefined) borrower.giveBack();
  }

  /** Keeps its own map of fingerprints (a copy of the shared one) and undoes its changes in the shared one. */
  private giveBack(): void {
    this.reclaim();
    const shared = this.fingerprints;
    const journal = this.journal ?? [];
    this.fingerprints = new Map(shared);
    this.journal = undefined;
    for (let k = journal.length - 1; k >= 0; k -= 1) {
      const [key, before] = journal[k] as [string, Fingerprint | undefined];
      if (before === undefined) shared.delete(key);
      else shared.set(key, before);
    }
  }

  private setFingerprint(key: string, value: Fingerprint | undefined): void {
    if (this.journal) {
      // A copy refreshed again and again stops journaling once its journal is longer than the map.
      if (this.journal.length > this.fingerprints.size + 1024) this.giveBack();
      else this.journal.push([key, this.fingerprints.get(key)]);
    }
    if (value === undefined) this.fingerprints.delete(key);
    else this.fingerprints.set(key, value);
  }

  /** Closes the whole intervals up to `nowMs` over `posts` (any order; those already seen are recognised by id). */
  refresh(posts: readonly StoryInput[], nowMs: number): readonly Storyline[] {
    const { intervalMs, spanIntervals, warmupIntervals } = this.options;
    const spanMs = intervalMs * spanIntervals;
    const lastEnd = Math.floor(nowMs / intervalMs) * intervalMs;
    const earliest = posts.reduce((min, post) => Math.min(min, post.publishedMs), Infinity);
    if (this.closedUntil === 0 || lastEnd - this.closedUntil > warmupIntervals * intervalMs) {
      const from = Math.max(Math.floor(earliest / intervalMs) * intervalMs, lastEnd - warmupIntervals * intervalMs);
      this.closedUntil = Number.isFinite(from) ? from : lastEnd;
      if (this.startedMs === 0) this.startedMs = this.closedUntil;
    }
    if (this.closedUntil >= lastEnd) return this.storylines;
    this.reclaim();
    const fresh = posts
      .filter((post) => post.publishedMs > this.closedUntil - spanMs && post.publishedMs <= lastEnd)
      .map((post) => this.prepare(post));
    fresh.sort((a, b) => a.publishedMs - b.publishedMs || a.id.localeCompare(b.id));
    let start = 0;
    for (let end = this.closedUntil + intervalMs; end <= lastEnd; end += intervalMs) {
      while (start < fresh.length && (fresh[start] as Prepared).publishedMs <= end - spanMs) start += 1;
      let stop = start;
      while (stop < fresh.length && (fresh[stop] as Prepared).publishedMs <= end) stop += 1;
      this.closeInterval(fresh.slice(start, stop), end);
    }
    this.closedUntil = lastEnd;
    this.forget(lastEnd);
    return this.storylines;
  }

  private closeInterval(span: readonly Prepared[], end: number): void {
    const counted = span.filter((post) => !this.isDuplicate(post));
    const groups = detectInterval(counted, this.baseline, this.options, this.index);
    if (end < this.startedMs + QUIET_INTERVALS * this.options.intervalMs) return;
    const assigned = new Map<string, string>();
    for (const line of this.storylines) for (const id of line.postIds) assigned.set(id, line.id);
    this.storylines = linkGroups(this.storylines, groups, {
      options: this.options,
      atMs: end,
      assigned,
      polarity: this.polarity,
      span: counted,
      newId: (group) => storyId(end, group.units[0]?.unit ?? ''),
    });
  }

  private prepare(post: StoryInput): Prepared {
    const known = this.prepared.get(post.id);
    if (known) return known;
    const { units, tokens, contracts, words } = unitsOf(post.text, post.tokens);
    const prepared: Prepared = {
      id: post.id,
      author: post.author,
      publishedMs: post.publishedMs,
      text: post.text,
      units,
      tokens,
      contracts,
      numbered: undefined,
      duplicate: false,
    };
    prepared.duplicate = isMarkedRepost(post.text) || this.seenBefore(prepared, fingerprintOf(words));
    this.prepared.set(post.id, prepared);
    return prepared;
  }

  private isDuplicate(post: Prepared): boolean {
    return post.duplicate;
  }

  /** Whether an earlier post had this post's fingerprint: the same author's, or anyone's for a long enough text. */
  private seenBefore(post: PreparedPost, fingerprint: string): boolean {
    if (fingerprint === '') return false;
    const keys = [`${post.author}\u0000${fingerprint}`];
    if (fingerprint.split(' ').length >= REPOST_MIN_WORDS) keys.push(fingerprint);
    let duplicate = false;
    for (const key of keys) {
      const first = this.fingerprints.get(key);
      if (first && first.id !== post.id && first.ms <= post.publishedMs) duplicate = true;
      else if (!first || first.ms > post.publishedMs) this.setFingerprint(key, { id: post.id, ms: post.publishedMs });
    }
    return duplicate;
  }

  /** Drops what no later refresh needs: posts before the span, fingerprints older than the window. */
  private forget(nowMs: number): void {
    const spanStart = nowMs - this.options.intervalMs * this.options.spanIntervals;
    for (const [id, post] of this.prepared) if (post.publishedMs <= spanStart) this.prepared.delete(id);
    const old: string[] = [];
    for (const [key, { ms }] of this.fingerprints) if (ms < nowMs - this.options.windowMs) old.push(key);
    for (const key of old) this.setFingerprint(key, undefined);
  }

  state(): StoriesState {
    return { ...this.stateWithout(), baseline: this.baseline.serialize() };
  }

  /** The state apart from the baselines, and the baselines' bytes (not copied: this engine must not refresh while they are written). */
  binaryState(): { rest: Omit<StoriesState, 'baseline'>; baseline: { mean: Buffer; variance: Buffer } } {
    return { rest: this.stateWithout(), baseline: this.baseline.bytes() };
  }

  private stateWithout(): Omit<StoriesState, 'baseline'> {
    this.reclaim();
    return {
      v: 1,
      startedMs: this.startedMs,
      closedUntil: this.closedUntil,
      storylines: this.storylines,
      fingerprints: [...this.fingerprints].map(([key, { id, ms }]) => [key, id, ms]),
    };
  }

  /**
   * A copy of this engine to refresh, so that this one stays as it is until that refresh is
   * stored (a dropped refresh must not move the state on); it keeps the posts already prepared.
   */
  copy(polarity: (post: PreparedPost) => number = this.polarity): StoryEngine {
    const copy = new StoryEngine(this.options, undefined, polarity, this.baseline);
    copy.storylines = structuredClone(this.storylines);
    copy.startedMs = this.startedMs;
    copy.closedUntil = this.closedUntil;
    copy.index = this.index;
    this.reclaim();
    [copy.fingerprints, copy.journal, this.lentTo] = [this.fingerprints, [], copy];
    for (const [id, post] of this.prepared) copy.prepared.set(id, post);
    return copy;
  }
}

/** A storyline's id: where and when it began, hashed (deterministic, so a replay gives the same ids). */
function storyId(atMs: number, unit: string): string {
  let h = 0x811c9dc5;
  for (const char of `${atMs}:${unit}`) h = Math.imul(h ^ char.charCodeAt(0), 0x01000193);
  return `s${atMs.toString(36)}${(h >>> 0).toString(36)}`;
}
