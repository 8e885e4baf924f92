import type { Redis } from 'ioredis';
import type { Logger } from '../../../../shared/logger.js';
import type { PostScorer } from '../sentiment/aggregate.js';
import type { MarketProvider } from '../providers/market-provider.js';
import type { AlertEvaluator } from '../alerts/evaluator.js';
import type { StoriesMemory } from '../stories/stories-memory.js';
import type { CallersConfig } from '../../../../shared/callers/callers-config.js';

/** What every job handler gets besides its job. */
export interface JobContext {
  redis: Redis;
  /** The upstream boundary (INDEX_PROVIDER): the index client or the composite providers. */
  provider: MarketProvider;
  logger: Logger;
  /** The clock, injectable so tests can pin cachedAt. */
  now: () => Date;
  /** How long history is kept (HISTORY_DAYS in ms); 0 writes snapshots only. */
  historyMs: number;
  /** Scores the news posts, remembering the last window's (newsScorer()): one per worker, kept across refreshes. */
  scorePost: PostScorer;
  /** The story engine's interval (30 minutes; tests shorten it): a news refresh closes the whole intervals since the last. */
  storyIntervalMs: number;
  /** The story engine this worker stored last, kept between its news refreshes (stories-refresh.ts). */
  storiesMemory: StoriesMemory;
  /** Evaluates alert rules after each refresh written (apps/worker/src/alerts/); absent in a worker that does not. */
  alerts?: AlertEvaluator;
  /** What a call, a breakout and a hit are (CALLS_*; docs/decisions.md#callers). */
  callers: CallersConfig;
}
