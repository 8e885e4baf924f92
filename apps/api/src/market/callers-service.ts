/**
 * The callers' answers (docs/decisions.md#callers): the day lists the worker appends are read
 * incrementally (CallersRecords), and each answer is computed once per refresh (the latest of the
 * news, trending and trending-CA snapshots' cachedAt, the instant it is as of) and held in memory,
 * so the fast path serves it; `?at=` computes the same at another instant from the records held.
 */
import type { Redis } from 'ioredis';
import { NotFoundError } from '../../../../shared/errors.js';
import type { CallersConfig } from '../../../../shared/callers/callers-config.js';
import { knownAt, type Known } from '../../../../shared/callers/figures.js';
import { CallersRecords, type HeldRecords } from '../../../../shared/callers/records-reader.js';
import { boundedCache } from '../cache/bounded-cache.js';
import { Representation, type ReadAnswer } from '../http/representation.js';
import { secondsLeft, type SnapshotCache } from './snapshot-cache.js';

const MAX_PREPARED = 2000;
/** The refreshes whose records the figures join: calls come with news, breakouts with the trending lists. */
const SOURCES = ['news', 'trending', 'trending-cas'] as const;

/** An answer's body from the records known at an instant (`known.atMs`). */
export type Compute = (known: Known) => object;

export class CallersService {
  private readonly records: CallersRecords;
  private readonly prepared = boundedCache<string, Representation>({ max: MAX_PREPARED });
  private readonly flights = new Map<string, Promise<Representation>>();
  private loaded: { liveMs: number; records: Promise<HeldRecords>; known: Map<number, Known> } | undefined;

  constructor(
    redis: Redis,
    private readonly snapshots: SnapshotCache,
    private readonly config: CallersConfig,
  ) {
    this.records = new CallersRecords(redis, config.horizonMs);
  }

  /** The live instant from the snapshots held: the latest of their cachedAt. */
  private live(): { liveMs: number; expiresAt: number } | undefined {
    let found: { liveMs: number; expiresAt: number } | undefined;
    for (const name of SOURCES) {
      const snapshot = this.snapshots.peek(name);
      const ms = snapshot && Date.parse(snapshot.cachedAt);
      if (snapshot && ms !== undefined && (!found || ms > found.liveMs)) found = { liveMs: ms, expiresAt: snapshot.expiresAt };
    }
    return found;
  }

  /** The answer prepared for `key` at the live instant, if any: never touches Redis. */
  peek(key: string): ReadAnswer | undefined {
    const live = this.live();
    const held = live && this.prepared.get(`${live.liveMs}|live|${key}`);
    return held && { representation: held, maxAgeSeconds: secondsLeft(live.expiresAt) };
  }

  /**
   * The answer for `key` as of `atMs` (undefined: the live instant; later than it: the live
   * instant), computed once. `reachMs`: how far before the instant the answer reads (its window
   * and the horizon); an instant whose reach is past the records kept is a 404.
   */
  async get(key: string, atMs: number | undefined, reachMs: number, compute: Compute): Promise<ReadAnswer> {
    await this.snapshots.get('news');
    const live = this.live()!;
    const instant = atMs === undefined ? live.liveMs : Math.min(atMs, live.liveMs);
    const cacheKey = `${live.liveMs}|${atMs === undefined ? 'live' : instant}|${key}`;
    const maxAgeSeconds = secondsLeft(live.expiresAt);
    const held = this.prepared.get(cacheKey);
    if (held) return { representation: held, maxAgeSeconds };
    // Concurrent asks for one answer share one computation.
    let flight = this.flights.get(cacheKey);
    if (!flight) {
      flight = this.knownAt(live.liveMs, instant, reachMs)
        .then((known) => {
          const representation = Representation.json(compute(known));
          this.prepared.set(cacheKey, representation);
          return representation;
        })
        .finally(() => this.flights.delete(cacheKey));
      this.flights.set(cacheKey, flight);
    }
    return { representation: await flight, maxAgeSeconds };
  }

  private async knownAt(liveMs: number, instant: number, reachMs: number): Promise<Known> {
    if (this.loaded?.liveMs !== liveMs) {
      const records = this.records.load(liveMs);
      this.loaded = { liveMs, records, known: new Map() };
      records.catch(() => {
        if (this.loaded?.records === records) this.loaded = undefined;
      });
    }
    const { records, known } = this.loaded;
    const held = await records;
    if (instant - reachMs < held.sinceMs) throw new NotFoundError('No record at that time');
    let result = known.get(instant);
    if (!result) {
      result = knownAt(held.calls, held.breakouts, instant, this.config.horizonMs);
      // The live instant and a few `at`s: each `at` is a join over the records held.
      if (known.size > 16) known.clear();
      known.set(instant, result);
    }
    return result;
  }
}
