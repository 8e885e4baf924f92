/**
 * Where the refresh jobs hand their data to the alert evaluator: the snapshots a refresh is
 * about to replace, read before its write, and the evaluation after it. An evaluation that
 * fails is logged, never the job's failure: the refresh is stored, and failing the job would
 * fetch from the upstream again.
 */
import type { NewsItem, SentimentRecord, TrendingCa, TrendingToken } from '../../../../shared/market-types.js';
import type { ListKind } from '../../../../shared/snapshot-kinds.js';
import type { JobContext } from '../jobs/job-context.js';

export interface PreviousBodies {
  first: string | null;
  second: string | null;
}

export async function alertsPrevious(context: JobContext, kind: ListKind | 'news'): Promise<PreviousBodies | undefined> {
  if (!context.alerts) return undefined;
  try {
    if (kind === 'news') {
      const [news, sentiment] = await context.alerts.previous(['news', 'sentiment']);
      return { first: news ?? null, second: sentiment ?? null };
    }
    if (kind !== 'trending' && kind !== 'trending-cas') return undefined;
    const [body] = await context.alerts.previous([kind]);
    return { first: body ?? null, second: null };
  } catch (error) {
    context.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'alerts: previous snapshot unread');
    return undefined;
  }
}

async function guarded(context: JobContext, what: string, evaluate: () => Promise<number>): Promise<void> {
  try {
    await evaluate();
  } catch (error) {
    context.logger.error({ err: error instanceof Error ? error.message : String(error), refresh: what }, 'alerts: evaluation failed');
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
  if (!alerts || !before) return;
  if (kind === 'trending') await guarded(context, kind, () => alerts.afterTrending(before.first, data as TrendingToken[], cachedAt));
  else if (kind === 'trending-cas')
    await guarded(context, kind, () => alerts.afterTrendingCas(before.first, data as TrendingCa[], cachedAt));
}

export async function alertsAfterNews(
  context: JobContext,
  before: PreviousBodies | undefined,
  posts: readonly NewsItem[],
  sentiment: Readonly<Record<string, SentimentRecord>>,
  cachedAt: string,
): Promise<void> {
  const { alerts } = context;
  if (!alerts || !before) return;
  await guarded(context, 'news', () => alerts.afterNews({ news: before.first, sentiment: before.second }, posts, sentiment, cachedAt));
}
