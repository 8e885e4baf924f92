import { trendingEntries } from '../../../../shared/history/refresh-entries.js';
import type { JobContext } from './job-context.js';
import { refreshList } from './refresh-list.js';

/** Trending tokens, ranked by smart-money activity as the index ranks them; history in the same write. */
export function refreshTrending(context: JobContext): Promise<{ items: number }> {
  return refreshList(context, 'trending', () => context.index.trendingTokens(), trendingEntries);
}
