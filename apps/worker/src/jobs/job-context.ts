import type { Redis } from 'ioredis';
import type { Logger } from '../../../../shared/logger.js';
import type { IndexClient } from '../index-client.js';

/** What every job handler gets besides its job. */
export interface JobContext {
  redis: Redis;
  index: IndexClient;
  logger: Logger;
  /** The clock, injectable so tests can pin cachedAt. */
  now: () => Date;
  /** How long history is kept (HISTORY_DAYS in ms); 0 writes snapshots only. */
  historyMs: number;
}
