import { trendingEntries } from '../../../../shared/history/refresh-entries.js';
import { writeRefresh } from '../../../../shared/history/history-store.js';
import type { JobContext } from './job-context.js';

/** Trending tokens, ranked by smart-money activity as the index ranks them; history in the same write. */
export async function refreshTrending({ redis, index, now, historyMs, logger }: JobContext): Promise<{ items: number }> {
  const data = await index.trendingTokens();
  const at = now();
  const cachedAt = at.toISOString();
  const body = JSON.stringify({ data, cachedAt });
  const written = await writeRefresh(
    redis,
    { atMs: at.getTime(), snapshots: [{ name: 'trending', body, version: cachedAt }], entries: trendingEntries(body, data) },
    historyMs,
  );
  if (!written) logger.warn({ cachedAt }, 'trending: a newer refresh is already stored; this one was dropped');
  return { items: data.length };
}
