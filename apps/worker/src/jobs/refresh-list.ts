import { writeRefresh, type SeriesEntry } from '../../../../shared/history/history-store.js';
import type { JobContext } from './job-context.js';

/**
 * A ranked list snapshot (trending tokens, trending contract addresses): fetched whole, stored
 * as the exact response body, and appended to history in the same write.
 */
export async function refreshList<T>(
  { redis, now, historyMs, logger }: JobContext,
  name: 'trending' | 'trending-cas',
  fetchList: () => Promise<T[]>,
  entries: (body: string, data: T[]) => SeriesEntry[],
): Promise<{ items: number }> {
  const data = await fetchList();
  const at = now();
  const cachedAt = at.toISOString();
  const body = JSON.stringify({ data, cachedAt });
  const written = await writeRefresh(redis, { atMs: at.getTime(), snapshots: [{ name, body, version: cachedAt }], entries: entries(body, data) }, historyMs);
  if (!written) logger.warn({ cachedAt }, `${name}: a newer refresh is already stored; this one was dropped`);
  return { items: data.length };
}
