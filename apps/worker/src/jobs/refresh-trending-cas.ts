import type { JobContext } from './job-context.js';
import { refreshList } from './refresh-list.js';

/** Kept only because the bench and scripts/history-memory.ts import it by this name; the worker runs refreshList. Delete once they call refreshList. */
export function refreshTrendingCas(context: JobContext): Promise<{ items: number }> {
  return refreshList(context, 'trending-cas');
}
