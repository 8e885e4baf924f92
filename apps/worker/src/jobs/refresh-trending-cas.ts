import { writeSnapshots } from '../../../../shared/snapshot-store.js';
import type { JobContext } from './job-context.js';

/** Trending contract addresses, ranked by the index. */
export async function refreshTrendingCas({ redis, index, now }: JobContext): Promise<{ items: number }> {
  const data = await index.trendingContracts();
  const cachedAt = now().toISOString();
  await writeSnapshots(redis, [{ name: 'trending-cas', body: JSON.stringify({ data, cachedAt }), version: cachedAt }]);
  return { items: data.length };
}
