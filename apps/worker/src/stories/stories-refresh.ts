/**
 * The worker's side of stories (docs/decisions.md#d23): at each news refresh, the engine resumes
 * from its state (kept in the worker's memory, reread from Redis only when another worker stored
 * a newer one), runs over the posts the refresh holds (tracked accounts only) and hands back the
 * snapshot's data and a step that stores the state.
 */
import { randomUUID } from 'node:crypto';
import type { NewsItem } from '../../../../shared/market-types.js';
import { storiesKeys } from '../../../../shared/keyspace.js';
import { execChecked } from '../../../../shared/redis-results.js';
import { STORY_WINDOWS, STORY_WINDOW_MS, type StoriesSnapshotData, type Story } from '../../../../shared/stories.js';
import type { JobContext } from '../jobs/job-context.js';
import type { PreparedPost } from './detect.js';
import { StoryEngine, type StoriesState } from './engine.js';
import type { Storyline } from './storylines.js';
import { storyView } from './story-view.js';

/** A storyline is listed for a week after its last post (the longest window). */
const KEPT_MS = STORY_WINDOW_MS['7d'];

export interface StoriesRefresh {
  data: StoriesSnapshotData;
  /** Stores the engine's state and keeps the engine in memory: only once the refresh is stored (a dropped one would count its interval twice). */
  store: () => Promise<void>;
}

export async function computeStories(context: JobContext, posts: readonly NewsItem[], atMs: number): Promise<StoriesRefresh> {
  const { redis, storiesMemory: memory } = context;
  // Only the posts a story takes are scored: the map of tokens is built at the first.
  let tokensOf: Map<string, readonly string[]> | undefined;
  const polarity = (post: PreparedPost) => {
    tokensOf ??= new Map(posts.map((item) => [item.id, item.tokens]));
    return context.scorePost(post.text, new Set(tokensOf.get(post.id) ?? []));
  };
  const stored = await redis.hget(storiesKeys.state(), 'version');
  // The engine runs on a copy: the one in memory stays the stored state's until this refresh is stored.
  const engine =
    memory.engine && stored !== null && stored === memory.version ? memory.engine.copy(polarity) : await loadEngine(context, polarity);
  const inputs = posts.map((post) => ({
    id: post.id,
    author: post.author,
    text: post.text,
    publishedMs: isoMs(post.publishedAt),
    tokens: post.tokens,
  }));
  const lines = engine.refresh(inputs, atMs);
  const store = async () => {
    const version = `${atMs.toString(36)}-${randomUUID()}`;
    const { rest, baseline } = engine.binaryState();
    await execChecked(
      redis
        .multi()
        .hset(storiesKeys.state(), { version, rest: JSON.stringify(rest), mean: baseline.mean, variance: baseline.variance })
        .unlink(storiesKeys.legacyState()),
    );
    memory.version = version;
    memory.engine = engine;
  };
  return { data: storiesData(lines, atMs), store };
}

/** `toISOString`'s shape: per character, its code, or -1 for a digit. */
const ISO_SHAPE = Int32Array.from('0000-00-00T00:00:00.000Z', (char) => (char === '0' ? -1 : char.charCodeAt(0)));

function isoShaped(text: string): boolean {
  if (text.length !== ISO_SHAPE.length) return false;
  for (let i = 0; i < ISO_SHAPE.length; i += 1) {
    const code = text.charCodeAt(i);
    const shape = ISO_SHAPE[i] as number;
    if (shape === -1 ? code < 48 || code > 57 : code !== shape) return false;
  }
  return true;
}

/** Two digits of `text` at `at`. */
const two = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

/**
 * `Date.parse` of a post's time, by arithmetic when it is as `toISOString` writes it (a news
 * refresh parses 10,000; Date.parse took 2.5 ms of them); anything else, or a day past the 28th,
 * by `Date.parse` itself.
 */
export function isoMs(text: string): number {
  if (!isoShaped(text)) return Date.parse(text);
  const year = two(text, 0) * 100 + two(text, 2);
  const month = two(text, 5);
  const day = two(text, 8);
  const hour = two(text, 11);
  const minute = two(text, 14);
  const second = two(text, 17);
  if (month < 1 || month > 12 || day < 1 || day > 28 || hour > 23 || minute > 59 || second > 59) return Date.parse(text);
  // Days since 1970 of a proleptic Gregorian date, years counted from March (Hinnant's days_from_civil).
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const days = era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468;
  return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + two(text, 20) * 10 + text.charCodeAt(22) - 48;
}

/** The engine from the stored state (none yet: a new one, which replays the posts at hand). */
async function loadEngine(context: JobContext, polarity: (post: PreparedPost) => number): Promise<StoryEngine> {
  const saved = await context.redis.hgetallBuffer(storiesKeys.state());
  const { rest, mean, variance } = saved;
  const state =
    rest && mean && variance
      ? { ...(JSON.parse(rest.toString()) as Omit<StoriesState, 'baseline'>), baseline: { mean, variance } }
      : undefined;
  return new StoryEngine({ intervalMs: context.storyIntervalMs, windowMs: KEPT_MS }, state, polarity);
}

export function storiesData(lines: readonly Storyline[], atMs: number): StoriesSnapshotData {
  const stories: Story[] = lines
    .map((line) => ({ ...storyView(line), smartAuthors: line.authors.length }))
    .sort((a, b) => b.score - a.score || b.authors - a.authors || a.id.localeCompare(b.id));
  const windows = Object.fromEntries(
    STORY_WINDOWS.map((window) => [window, stories.filter((story) => Date.parse(story.lastSeenAt) > atMs - STORY_WINDOW_MS[window])]),
  ) as StoriesSnapshotData['windows'];
  const scores = Object.fromEntries(
    lines.map((line) => [line.id, line.scores.map(([at, score]) => ({ at: new Date(at).toISOString(), score }))]),
  );
  return { windows, scores };
}
