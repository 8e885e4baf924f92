import type { JobContext } from './job-context.js';
import { refreshList } from './refresh-list.js';

/** Trending tokens: kept for the bench and scripts, which import it by this name; the worker runs refreshList. */
export function refreshTrending(context: JobContext): Promise<{ items: number }> {
  return refreshList(context, 'trending');
}
