import { writeSnapshots } from '../../../../shared/snapshot-store.js';
import type { JobContext } from './job-context.js';

/** Trending tokens, ranked by smart-money activity as the index ranks them. */
export async function refreshTrending({ redis, index, now }: JobContext): Promise<{ items: number }> {
  const data = await index.trendingTokens();
  const cachedAt = now().toISOString();
  await writeSnapshots(redis, [{ name: 'trending', body: JSON.stringify({ data, cachedAt }), version: cachedAt }]);
  return { items: data.length };
}
