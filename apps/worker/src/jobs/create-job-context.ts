import type { JobContext } from './job-context.js';
import { newsScorer } from './refresh-news.js';
import { DEFAULT_CALLERS } from '../../../../shared/callers/callers-config.js';

const DEFAULT_HISTORY_MS = 30 * 86_400_000;
const DEFAULT_STORY_INTERVAL_MS = 30 * 60_000;

/**
 * The context a worker's jobs run in, as the worker builds it (worker.ts) and as the tests, the
 * bench and dev/ do to run a job function by hand: the wall clock and 30 days of history unless
 * given, and a news scorer of its own.
 */
export function createJobContext(
  parts: Pick<JobContext, 'redis' | 'provider' | 'logger'> & Partial<Pick<JobContext, 'now' | 'historyMs' | 'callers' | 'storyIntervalMs'>>,
): JobContext {
  return {
    now: () => new Date(),
    historyMs: DEFAULT_HISTORY_MS,
    callers: DEFAULT_CALLERS,
    storyIntervalMs: DEFAULT_STORY_INTERVAL_MS,
    ...parts,
    scorePost: newsScorer(),
    storiesMemory: {},
  };
}
