/**
 * The worker's side of stories (docs/decisions.md#d23): at each news refresh, the engine resumes
 * from its state in Redis, runs over the posts the refresh holds (tracked accounts only) and
 * hands back the snapshot's data and the state to keep.
 */
import type { NewsItem } from '../../../../shared/market-types.js';
import { storiesKeys } from '../../../../shared/keyspace.js';
import { STORY_WINDOWS, STORY_WINDOW_MS, type StoriesSnapshotData, type Story } from '../../../../shared/stories.js';
import type { JobContext } from '../jobs/job-context.js';
import { StoryEngine, type StoriesState } from './engine.js';
import type { Storyline } from './storylines.js';
import { storyView } from './story-view.js';

/** A storyline is listed for a week after its last post (the longest window). */
const KEPT_MS = STORY_WINDOW_MS['7d'];

export interface StoriesRefresh {
  data: StoriesSnapshotData;
  /** The engine's state, JSON: written once the refresh is stored. */
  state: string;
}

export async function computeStories(context: JobContext, posts: readonly NewsItem[], atMs: number): Promise<StoriesRefresh> {
  const saved = await context.redis.get(storiesKeys.state());
  const state = saved === null ? undefined : (JSON.parse(saved) as StoriesState);
  const tokensOf = new Map(posts.map((post) => [post.id, post.tokens]));
  const engine = new StoryEngine({ intervalMs: context.storyIntervalMs, windowMs: KEPT_MS }, state, (post) =>
    context.scorePost(post.text, new Set(tokensOf.get(post.id) ?? [])),
  );
  const inputs = posts.map((post) => ({
    id: post.id,
    author: post.author,
    text: post.text,
    publishedMs: Date.parse(post.publishedAt),
    tokens: post.tokens,
  }));
  const lines = engine.refresh(inputs, atMs);
  return { data: storiesData(lines, atMs), state: JSON.stringify(engine.state()) };
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
