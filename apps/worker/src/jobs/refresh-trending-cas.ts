import { trendingCasEntries } from '../../../../shared/history/refresh-entries.js';
import { writeRefresh } from '../../../../shared/history/history-store.js';
import type { JobContext } from './job-context.js';

/** Trending contract addresses, ranked by the index; history in the same write. */
export async function refreshTrendingCas({ redis, index, now, historyMs, logger }: JobContext): Promise<{ items: number }> {
  const data = await index.trendingContracts();
  const at = now();
  const cachedAt = at.toISOString();
  const body = JSON.stringify({ data, cachedAt });
  const written = await writeRefresh(
    redis,
    { atMs: at.getTime(), snapshots: [{ name: 'trending-cas', body, version: cachedAt }], entries: trendingCasEntries(body, data) },
    historyMs,
  );
  if (!written) logger.warn({ cachedAt }, 'trending-cas: a newer refresh is already stored; this one was dropped');
  return { items: data.length };
}
