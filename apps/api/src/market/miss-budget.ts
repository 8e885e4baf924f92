/**
 * A budget of stats misses per client address. A miss (a username neither cached nor known to
 * be absent) is the one request an anonymous client can make that costs an upstream call, and
 * real providers meter every call: 1,000 unique unknown usernames once cost 1,000 calls in 3 s.
 * Hits and remembered 404s are free; each miss takes one from the address's budget, counted in
 * Redis so all replicas share it, in fixed windows. An exhausted budget is a 429 with
 * `Retry-After` and the `RateLimit` / `RateLimit-Policy` fields of the IETF httpapi draft.
 */
import type { Redis } from 'ioredis';
import { RateLimitedError } from '../../../../shared/errors.js';
import { keys } from '../../../../shared/keyspace.js';
import { runScript } from '../../../../shared/redis-scripts.js';

/** Misses allowed per address and window: a dashboard's first load fits, a crawl of names does not. */
export const STATS_MISS_BUDGET = 60;
export const STATS_MISS_WINDOW_SECONDS = 10 * 60;
/** The policy's name in the RateLimit fields. */
const POLICY = 'stats-misses';

export interface MissBudgetOptions {
  /** Default STATS_MISS_BUDGET. */
  limit?: number;
  /** Default STATS_MISS_WINDOW_SECONDS. */
  windowSeconds?: number;
}

export class MissBudget {
  private readonly limit: number;
  private readonly windowSeconds: number;

  constructor(private readonly redis: Redis, options: MissBudgetOptions = {}) {
    this.limit = options.limit ?? STATS_MISS_BUDGET;
    this.windowSeconds = options.windowSeconds ?? STATS_MISS_WINDOW_SECONDS;
  }

  /**
   * Takes one miss from `address`'s budget and returns the `RateLimit` fields that describe
   * what is left (for the response that spent it), or throws 429 `Too many requests` when the
   * budget is spent.
   */
  async charge(address: string): Promise<Record<string, string>> {
    const reply = (await runScript(this.redis, 'chargeMissBudget', [keys.statsMissBudget(address)], [this.windowSeconds])) as [number, number];
    const [count, ttl] = reply;
    // Counting on past the limit is harmless: the window's expiry was set by its first miss.
    const reset = ttl > 0 ? ttl : this.windowSeconds;
    const fields = {
      'RateLimit-Policy': `"${POLICY}";q=${this.limit};w=${this.windowSeconds}`,
      RateLimit: `"${POLICY}";r=${Math.max(0, this.limit - count)};t=${reset}`,
    };
    if (count > this.limit) throw new RateLimitedError('Too many requests', reset, fields);
    return fields;
  }
}
