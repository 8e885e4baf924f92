/**
 * Per-username stats (docs/decisions.md#d7): a Redis hit is served as stored; a miss asks the
 * worker and waits boundedly, else 503. Concurrent misses for one username share one flight (one
 * lookup, enqueue, wait and re-read), so a stampede costs what one client does. Hits (only hits:
 * a 404 comes from Redis' miss marker) are held in memory for 1 s, so a hot username is not a
 * round trip per request, with the Redis entry's expiry, so max-age keeps counting down.
 */
import type { Redis } from 'ioredis';
import { NotFoundError, UnavailableError } from '../../../../shared/errors.js';
import { keys } from '../../../../shared/keyspace.js';
import { execChecked } from '../../../../shared/redis-results.js';
import type { JobOutcome } from './job-waiter.js';
import type { AdmitMiss } from './miss-ceiling.js';
import { boundedCache, type BoundedCache } from '../cache/bounded-cache.js';
import { Representation, type ReadAnswer } from '../http/representation.js';

/** How long a hit is served from memory. */
const MEMORY_TTL_MS = 1000;

export interface StatsServiceOptions {
  /** Usernames held in memory at most. Default 10,000. */
  memoryMaxEntries?: number;
  /** Clock, ms since epoch (tests). */
  now?: () => number;
  /** Whether a miss charged to its client may go to the worker (miss-ceiling.ts); else the seconds to wait. Default: always. */
  admit?: AdmitMiss;
}

/** A hit held in memory: when it was read and when the Redis entry expires (epoch ms). */
interface Held {
  representation: Representation;
  readAt: number;
  expiresAt: number;
}

type Lookup = { kind: 'hit'; held: Held } | { kind: 'not-in-index' } | { kind: 'unknown' };
/** What a flight ends with; each caller turns it into its own answer or error. */
type Settled =
  | { kind: 'hit'; held: Held }
  | { kind: 'not-in-index' }
  | { kind: 'unavailable'; retryAfterSeconds: number }
  /** The flight's starter had no miss budget left: the upstream was not asked. */
  | { kind: 'refused'; error: unknown };

/** Charges one miss to the client that caused it; throws (429) when its budget is spent. */
export type ChargeMiss = () => Promise<void>;

export class StatsService {
  private readonly held: BoundedCache<string, Held>;
  private readonly flights = new Map<string, Promise<Settled>>();
  private readonly now: () => number;
  private readonly admit: AdmitMiss;

  constructor(
    private readonly redis: Redis,
    private readonly fetch: (username: string) => Promise<JobOutcome>,
    options: StatsServiceOptions = {},
  ) {
    this.held = boundedCache({ max: options.memoryMaxEntries ?? 10_000 });
    this.now = options.now ?? Date.now;
    this.admit = options.admit ?? (() => Promise.resolve(undefined));
  }

  /** The hit held in memory for `username` (normalised) while fresh; never touches Redis. */
  peek(username: string): ReadAnswer | undefined {
    const held = this.held.get(username);
    if (!held) return undefined;
    const now = this.now();
    if (now - held.readAt >= MEMORY_TTL_MS || now >= held.expiresAt) {
      this.held.delete(username);
      return undefined;
    }
    return answerFrom(held, now);
  }

  /** `chargeMiss` is called only when the upstream must be asked, by the caller that starts the flight. */
  async get(username: string, chargeMiss: ChargeMiss = async () => {}): Promise<ReadAnswer> {
    const inMemory = this.peek(username);
    if (inMemory) return inMemory;
    const settled = await this.fly(username, chargeMiss);
    switch (settled.kind) {
      case 'hit':
        return answerFrom(settled.held, this.now());
      case 'not-in-index':
        throw new NotFoundError('Username not found in index');
      case 'unavailable':
        throw new UnavailableError('Upstream unavailable', settled.retryAfterSeconds);
      case 'refused':
        throw settled.error;
    }
  }

  /**
   * Joins the username's flight or starts one. A flight refused for its starter's budget says
   * nothing about a joiner's, so the joiner then starts its own (a few times at most).
   */
  private async fly(username: string, chargeMiss: ChargeMiss): Promise<Settled> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const joined = this.flights.get(username);
      const settled = await (joined ?? this.start(username, chargeMiss));
      if (settled.kind !== 'refused' || !joined) return settled;
    }
    return this.resolve(username, chargeMiss);
  }

  private start(username: string, chargeMiss: ChargeMiss): Promise<Settled> {
    const flight: Promise<Settled> = this.resolve(username, chargeMiss).finally(() => {
      if (this.flights.get(username) === flight) this.flights.delete(username);
    });
    this.flights.set(username, flight);
    return flight;
  }

  /** One flight: look up, and on a miss charge it, ask the worker, wait, look up again. */
  private async resolve(username: string, chargeMiss: ChargeMiss): Promise<Settled> {
    const first = await this.lookup(username);
    if (first.kind !== 'unknown') return first;
    try {
      await chargeMiss();
    } catch (error) {
      return { kind: 'refused', error };
    }
    // Every client's misses together are bounded too: beyond, 503 at once rather than a job that waits 9 s.
    const wait = await this.admit();
    if (wait !== undefined) return { kind: 'unavailable', retryAfterSeconds: wait };
    const outcome = await this.fetch(username);
    const second = await this.lookup(username);
    if (second.kind !== 'unknown') return second;
    return { kind: 'unavailable', retryAfterSeconds: outcome === 'timeout' ? 10 : 30 };
  }

  private async lookup(username: string): Promise<Lookup> {
    // A pipeline, not MULTI: the worker's writes are atomic already. A failed command is an error, not a miss (which would ask the worker).
    const [body, ttlMs, missKnown] = await execChecked(
      this.redis.pipeline().getBuffer(keys.stats(username)).pttl(keys.stats(username)).exists(keys.statsMiss(username)),
    );
    if (Buffer.isBuffer(body)) {
      const readAt = this.now();
      const held: Held = {
        representation: new Representation(body),
        readAt,
        expiresAt: readAt + (typeof ttlMs === 'number' && ttlMs > 0 ? ttlMs : 0),
      };
      // Its age is checked on read (peek), against the injectable clock.
      this.held.set(username, held);
      return { kind: 'hit', held };
    }
    return missKnown === 1 ? { kind: 'not-in-index' } : { kind: 'unknown' };
  }
}

function answerFrom(held: Held, now: number): ReadAnswer {
  return { representation: held.representation, maxAgeSeconds: Math.max(0, (held.expiresAt - now) / 1000) };
}
