import type { NewsItem, SentimentRecord } from '../../../../shared/market-types.js';
import type { StoriesSnapshotData } from '../../../../shared/stories.js';
import { memoizedScorer, summarizeSentiment, type PostScorer } from '../sentiment/aggregate.js';
import { writeRefresh, type SeriesEntry } from '../../../../shared/history/history-store.js';
import { countMentions, mindshareLists, readBuckets, type MindshareLists } from '../mindshare/mindshare-counts.js';
import { newsEntries } from '../../../../shared/history/refresh-entries.js';
import { boundProviderText } from '../../../../shared/provider-text.js';
import { historyKeys, snapshotKeys } from '../../../../shared/snapshot-keys.js';
import { NEWS_MAX_POSTS, NEWS_WINDOW_MS } from '../providers/market-provider.js';
import { UpstreamError } from '../providers/upstream-error.js';
import type { JobContext } from './job-context.js';
import { storeFetched } from './store-fetched.js';
import { recordCalls } from '../callers/record-calls.js';
import { alertsAfterNews, alertsPrevious } from '../alerts/refresh-hooks.js';
import { computeStories } from '../stories/stories-refresh.js';

/**
 * The scorer a worker keeps across its news refreshes, remembering a window's worth and a fifth: a
 * refresh finds nearly all of the previous window's posts again, and posts that left the window are
 * the least recently used. Twice the window kept the worker's RSS climbing for 200 refreshes.
 */
export const newsScorer = (): PostScorer => memoizedScorer(NEWS_MAX_POSTS + NEWS_MAX_POSTS / 5);

/** News and per-token sentiment come from the same posts, so they are written together, with their history. */
export async function refreshNews(context: JobContext): Promise<{ items: number; tokens: number }> {
  const { redis, provider, now, historyMs, logger } = context;
  const at = now();
  const posts = boundProviderText(await provider.posts(new Date(at.getTime() - NEWS_WINDOW_MS), NEWS_MAX_POSTS));
  // An empty window means the upstream lost its data, not that nobody posted: keep what we have.
  if (posts.length === 0) throw new UpstreamError('upstream v1/posts: empty window');
  posts.sort(newestFirst);
  const cachedAt = at.toISOString();
  const alertsBefore = await alertsPrevious(context, 'news');

  const sentiment: Record<string, SentimentRecord> = {};
  // Each post's polarity as the records took it: the story engine reuses it rather than scoring the post again.
  const scored = new Map<NewsItem, number>();
  for (const [token, summary] of summarizeSentiment(posts, context.scorePost, scored)) sentiment[token] = { ...summary, cachedAt };

  const mindshare = await refreshMindshare(context, posts, at.getTime());
  // Before the snapshots land: a read prompted by them finds the calls they brought.
  await storeFetched(() => recordCalls(redis, posts, at.getTime(), context.callers));
  // Its Redis reads come before the engine runs: a retry after a Redis failure repeats the reads, not the upstream call.
  const stories = await storeFetched(() => computeStories(context, posts, at.getTime(), scored));
  const snapshots = [
    { name: 'news', body: JSON.stringify({ data: posts, cachedAt }), version: cachedAt },
    { name: 'sentiment', body: JSON.stringify({ data: sentiment, cachedAt }), version: cachedAt },
    { name: 'mindshare', body: JSON.stringify({ data: mindshare, cachedAt }), version: cachedAt },
    { name: 'stories', body: JSON.stringify({ data: stories.data, cachedAt }), version: cachedAt },
  ] as const;
  const written = await storeFetched(async () => {
    // Without history, writeRefresh writes the snapshots alone.
    const entries =
      historyMs > 0
        ? [
            ...newsEntries({ cachedAt, posts, sentiment, ...(await previousRefresh(context)) }),
            mindshareEvent(mindshare, cachedAt),
            storiesEvent(stories.data, cachedAt),
          ]
        : [];
    const values = [{ key: historyKeys.newsIds(), value: posts.map((post) => post.id).join('\n') }];
    return writeRefresh(redis, { atMs: at.getTime(), snapshots, values, entries }, historyMs);
  });
  if (!written) logger.warn({ cachedAt }, 'news: a newer refresh is already stored; this one was dropped');
  // The engine's state moves on only with a stored refresh (a dropped one would count its interval twice).
  // Not stored in time, the refresh stands and the next one reads on from the state before: no second fetch for it.
  else
    await storeFetched(stories.store).catch((error: unknown) =>
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'stories: engine state not stored'),
    );
  if (written) await alertsAfterNews(context, alertsBefore, posts, sentiment, stories.data, cachedAt);
  return { items: posts.length, tokens: Object.keys(sentiment).length };
}

/** The posts counted into the mindshare buckets (each once), and every window's list from them; none without history. */
async function refreshMindshare(
  { redis, historyMs, scorePost }: JobContext,
  posts: readonly NewsItem[],
  nowMs: number,
): Promise<MindshareLists> {
  if (historyMs <= 0) return mindshareLists({ hour: new Map(), day: new Map() }, nowMs);
  await storeFetched(() => countMentions(redis, posts, scorePost, nowMs, historyMs));
  return mindshareLists(await storeFetched(() => readBuckets(redis, nowMs, historyMs)), nowMs);
}

/** The mindshare topic's event: each window's top ten (the whole lists are the snapshot; the stream stays small). */
function mindshareEvent(lists: MindshareLists, cachedAt: string): SeriesEntry {
  const top = Object.fromEntries(Object.entries(lists).map(([window, items]) => [window, items.slice(0, MINDSHARE_EVENT_TOKENS)]));
  return { key: historyKeys.events('mindshare'), fields: ['b', JSON.stringify({ data: top, cachedAt })] };
}
const MINDSHARE_EVENT_TOKENS = 10;

/** The stories topic's event, and `?at=`'s answer: the 24 hours' top ten, as GET /api/market/stories answers them. */
function storiesEvent(data: StoriesSnapshotData, cachedAt: string): SeriesEntry {
  const top = data.windows['24h'].slice(0, STORIES_EVENT_COUNT);
  return { key: historyKeys.events('stories'), fields: ['b', JSON.stringify({ window: '24h', data: top, cachedAt })] };
}
const STORIES_EVENT_COUNT = 10;

/** What the events compare with: the last refresh's post ids and sentiment records, when there was one. */
async function previousRefresh({ redis }: JobContext): Promise<{
  previousIds: Set<string> | undefined;
  previousSentiment: Record<string, SentimentRecord> | undefined;
}> {
  const [ids, sentiment] = await redis.mget(historyKeys.newsIds(), snapshotKeys.snapshot('sentiment'));
  return {
    previousIds: ids === null || ids === undefined ? undefined : new Set(ids.split('\n')),
    previousSentiment: sentiment ? (JSON.parse(sentiment) as { data: Record<string, SentimentRecord> }).data : undefined,
  };
}

function newestFirst(a: NewsItem, b: NewsItem): number {
  return b.publishedAt.localeCompare(a.publishedAt) || b.id.localeCompare(a.id);
}
