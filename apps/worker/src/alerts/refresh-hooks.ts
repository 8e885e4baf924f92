/**
 * Where the refresh jobs hand their data to the alert evaluator. An evaluation that fails is
 * logged, never the job's failure: the refresh is stored, and failing the job would fetch again.
 * Nothing is lost by it: the kind's evaluated-through record did not move, so the next evaluation
 * compares against what this one would have (docs/decisions.md D21).
 */
import type { NewsItem, SentimentRecord, TrendingCa, TrendingToken } from '../../../../shared/market-types.js';
import { STORY_WINDOWS, type StoriesSnapshotData, type Story } from '../../../../shared/stories.js';
import type { ListKind } from '../../../../shared/snapshot-kinds.js';
import type { JobContext } from '../jobs/job-context.js';

/** The snapshot bodies the refresh replaces: `[list]` for a list kind, `[news, sentiment]` for news. */
type PreviousBodies = (string | null)[];

export async function alertsPrevious(context: JobContext, kind: ListKind | 'news'): Promise<PreviousBodies | undefined> {
  const names = kind === 'news' ? (['news', 'sentiment'] as const) : kind === 'trending' || kind === 'trending-cas' ? [kind] : [];
  if (!context.alerts || names.length === 0) return undefined;
  try {
    return await context.alerts.previous(names);
  } catch (error) {
    context.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'alerts: previous snapshot unread');
    return undefined;
  }
}

async function guarded(context: JobContext, what: string, evaluate: () => Promise<number>): Promise<void> {
  try {
    await evaluate();
  } catch (error) {
    context.logger.error(
      { err: error instanceof Error ? error.message : String(error), refresh: what },
      'alerts: evaluation failed; the next refresh evaluates its change',
    );
  }
}

export async function alertsAfterList(
  context: JobContext,
  kind: ListKind,
  before: PreviousBodies | undefined,
  data: readonly unknown[],
  cachedAt: string,
): Promise<void> {
  const { alerts } = context;
  const previous = before?.[0] ?? null;
  if (!alerts || !before) return;
  if (kind === 'trending') await guarded(context, kind, () => alerts.afterTrending(previous, data as TrendingToken[], cachedAt));
  else if (kind === 'trending-cas') await guarded(context, kind, () => alerts.afterTrendingCas(previous, data as TrendingCa[], cachedAt));
}

export async function alertsAfterNews(
  context: JobContext,
  before: PreviousBodies | undefined,
  posts: readonly NewsItem[],
  sentiment: Readonly<Record<string, SentimentRecord>>,
  stories: StoriesSnapshotData,
  cachedAt: string,
): Promise<void> {
  const { alerts } = context;
  if (!alerts || !before) return;
  const previous = { news: before[0] ?? null, sentiment: before[1] ?? null };
  await guarded(context, 'news', () => alerts.afterNews(previous, posts, sentiment, cachedAt, storiesListed(stories)));
}

/** Every story the snapshot lists, once (the windows overlap). */
function storiesListed(data: StoriesSnapshotData): Story[] {
  const byId = new Map<string, Story>();
  for (const window of STORY_WINDOWS) for (const story of data.windows[window]) byId.set(story.id, story);
  return [...byId.values()];
}
