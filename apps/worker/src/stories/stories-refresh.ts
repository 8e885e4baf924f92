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
import { postPolarity } from '../sentiment/aggregate.js';
import type { PreparedPost } from './detect.js';
import { StoryEngine, type StoriesState, type StoryInput } from './engine.js';
import type { Storyline } from './storylines.js';
import { storyView } from './story-view.js';

/** A storyline is listed for a week after its last post (the longest window). */
const KEPT_MS = STORY_WINDOW_MS['7d'];

export interface StoriesRefresh {
  data: StoriesSnapshotData;
  /** Stores the engine's state and keeps the engine in memory: only once the refresh is stored (a dropped one would count its interval twice). */
  store: () => Promise<void>;
}

/**
 * `posts`: newest first, as refreshNews sorts them (by `publishedAt`, as toISOString writes it).
 * `scored`: the posts' polarities as this refresh's sentiment records took them (`summarizeSentiment`),
 * reused for a story's sentiment; a post not among them (one that mentions no token) is scored here, the same way.
 */
export async function computeStories(
  context: JobContext,
  posts: readonly NewsItem[],
  atMs: number,
  scored: ReadonlyMap<NewsItem, number> = new Map(),
): Promise<StoriesRefresh> {
  const { redis, storiesMemory: memory } = context;
  // Only the posts a story takes need a polarity, all among those the engine reads (the first `inputs.length`
  // posts): the map of their items is built at the first.
  const inputs: StoryInput[] = [];
  let itemOf: Map<string, NewsItem> | undefined;
  const polarity = (post: PreparedPost) => {
    itemOf ??= new Map(posts.slice(0, inputs.length).map((item) => [item.id, item]));
    const item = itemOf.get(post.id);
    const known = item === undefined ? undefined : scored.get(item);
    return known ?? postPolarity({ text: post.text, tokens: item?.tokens ?? [] }, context.scorePost);
  };
  const stored = await redis.hget(storiesKeys.state(), 'version');
  // The engine runs on a copy: the one in memory stays the stored state's until this refresh is stored.
  const engine =
    memory.engine && stored !== null && stored === memory.version ? memory.engine.copy(polarity) : await loadEngine(context, polarity);
  // Posts before the engine's span are not read: times as toISOString writes them compare as their text does, and the
  // posts come newest first, so the first before the span ends the loop (most posts are left out unread).
  const after = engine.readsAfter(atMs);
  const afterText = after === undefined ? undefined : [new Date(after).toISOString()].find(isoShaped);
  for (const post of posts) {
    if (afterText !== undefined && post.publishedAt <= afterText && isoShaped(post.publishedAt)) break;
    inputs.push({ id: post.id, author: post.author, text: post.text, publishedMs: Date.parse(post.publishedAt), tokens: post.tokens });
  }
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

/** Whether the text is a time as `toISOString` writes it (years 0 to 9999). */
export function isoShaped(text: string): boolean {
  if (text.length !== ISO_SHAPE.length) return false;
  for (let i = 0; i < ISO_SHAPE.length; i += 1) {
    const code = text.charCodeAt(i);
    const shape = ISO_SHAPE[i] as number;
    if (shape === -1 ? code < 48 || code > 57 : code !== shape) return false;
  }
  return true;
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
