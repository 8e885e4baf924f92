/**
 * Per-username stats: a Redis hit is served as stored; a miss asks the worker (one job per
 * username however many clients ask) and waits at most `waitMs` before answering 503 (D7).
 */
import type { Redis } from 'ioredis';
import { NotFoundError, UnavailableError } from '../../../../shared/errors.js';
import { keys } from '../../../../shared/keyspace.js';
import type { JobOutcome } from './job-waiter.js';
import { Representation } from '../http/representation.js';

export interface StatsAnswer {
  representation: Representation;
  maxAgeSeconds: number;
}

type Lookup = { kind: 'hit'; answer: StatsAnswer } | { kind: 'not-in-index' } | { kind: 'unknown' };

export class StatsService {
  constructor(
    private readonly redis: Redis,
    private readonly fetch: (username: string) => Promise<JobOutcome>,
  ) {}

  /** `username` is the normalised key (lower case, no `@`). */
  async get(username: string): Promise<StatsAnswer> {
    const first = await this.lookup(username);
    if (first.kind === 'hit') return first.answer;
    if (first.kind === 'not-in-index') throw notInIndex();
    const outcome = await this.fetch(username);
    const second = await this.lookup(username);
    if (second.kind === 'hit') return second.answer;
    if (second.kind === 'not-in-index') throw notInIndex();
    throw new UnavailableError('Upstream unavailable', outcome === 'timeout' ? 10 : 30);
  }

  private async lookup(username: string): Promise<Lookup> {
    // A pipeline, not MULTI: one round trip either way, and the worker's writes are atomic already.
    const results = await this.redis
      .pipeline()
      .getBuffer(keys.stats(username))
      .pttl(keys.stats(username))
      .exists(keys.statsMiss(username))
      .exec();
    const body = results?.[0]?.[1];
    const ttlMs = results?.[1]?.[1];
    if (Buffer.isBuffer(body)) {
      const maxAgeSeconds = typeof ttlMs === 'number' && ttlMs > 0 ? ttlMs / 1000 : 0;
      return { kind: 'hit', answer: { representation: new Representation(body), maxAgeSeconds } };
    }
    return results?.[2]?.[1] === 1 ? { kind: 'not-in-index' } : { kind: 'unknown' };
  }
}

const notInIndex = () => new NotFoundError('Username not found in index');
