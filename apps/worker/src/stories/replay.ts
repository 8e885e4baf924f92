/**
 * The engine offline: an archive of posts (TSV `created_at author text`) replayed in time order,
 * one refresh per interval, every author tracked; every storyline seen over the replay.
 */
import { StoryEngine, type StoryInput } from './engine.js';
import type { StoryOptions } from './options.js';
import { storyView, type StoryView } from './story-view.js';

export class ArchiveError extends Error {
  override readonly name = 'ArchiveError';
}

const HEADER = ['created_at', 'author', 'text'];

/** The archive's posts; a post's id is its line number (1 = the first line after the header). */
export function parseArchive(tsv: string): StoryInput[] {
  const lines = tsv.split(/\r?\n/);
  if ((lines[0] ?? '').split('\t').join(',') !== HEADER.join(','))
    throw new ArchiveError(`the first line must be the header ${HEADER.join('<TAB>')}`);
  const posts: StoryInput[] = [];
  for (let i = 1; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (line.trim() === '') continue;
    const [createdAt = '', author = '', ...text] = line.split('\t');
    const publishedMs = Date.parse(createdAt);
    if (!Number.isFinite(publishedMs) || author === '') throw new ArchiveError(`line ${i + 1}: needs an ISO 8601 time and an author`);
    posts.push({ id: String(i), author, text: text.join('\t'), publishedMs });
  }
  return posts;
}

export type ReplayedStory = Pick<
  StoryView,
  'id' | 'title' | 'terms' | 'tokens' | 'firstSeenAt' | 'peakAt' | 'lastSeenAt' | 'posts' | 'authors' | 'postIds'
>;

/** Replays the posts through the engine, one refresh per interval; the storylines in the order they began. */
export function replay(posts: readonly StoryInput[], options: Partial<StoryOptions> = {}): ReplayedStory[] {
  const engine = new StoryEngine(options);
  const { intervalMs, spanIntervals } = engine.options;
  const sorted = [...posts].sort((a, b) => a.publishedMs - b.publishedMs || Number(a.id) - Number(b.id));
  const seen = new Map<string, ReplayedStory>();
  if (sorted.length === 0) return [];
  const first = Math.floor((sorted[0] as StoryInput).publishedMs / intervalMs) * intervalMs;
  const last = (sorted.at(-1) as StoryInput).publishedMs + intervalMs;
  let from = 0;
  let to = 0;
  for (let now = first + intervalMs; now <= last; now += intervalMs) {
    while (to < sorted.length && (sorted[to] as StoryInput).publishedMs <= now) to += 1;
    while (from < to && (sorted[from] as StoryInput).publishedMs <= now - 2 * intervalMs * spanIntervals) from += 1;
    for (const line of engine.refresh(sorted.slice(from, to), now)) {
      const { id, title, terms, tokens, firstSeenAt, peakAt, lastSeenAt, posts: count, authors, postIds } = storyView(line);
      seen.set(id, { id, title, terms, tokens, firstSeenAt, peakAt, lastSeenAt, posts: count, authors, postIds });
    }
  }
  return [...seen.values()].sort((a, b) => a.firstSeenAt.localeCompare(b.firstSeenAt) || a.id.localeCompare(b.id));
}
