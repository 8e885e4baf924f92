import { trendingCasEntries } from '../../../../shared/history/refresh-entries.js';
import type { JobContext } from './job-context.js';
import { refreshList } from './refresh-list.js';

/** Trending contract addresses, ranked by the index; history in the same write. */
export function refreshTrendingCas(context: JobContext): Promise<{ items: number }> {
  return refreshList(context, 'trending-cas', () => context.index.trendingContracts(), trendingCasEntries);
}
