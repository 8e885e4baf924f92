/**
 * A budget of stats misses per client address (an IPv6 client: per network, http/client-address.ts), or per API key for a keyed client (a larger
 * one: the client is known and its key can be revoked). A miss (a username neither cached nor known to
 * be absent) is the one request an anonymous client can make that costs an upstream call, and
 * real providers meter every call: 1,000 unique unknown usernames once cost 1,000 calls in 3 s.
 * Hits and remembered 404s are free; each miss takes one from the address's budget, counted in
 * Redis so all replicas share it, in fixed windows. An exhausted budget is a 429 with
 * `Retry-After` and the `RateLimit` / `RateLimit-Policy` fields of the IETF httpapi draft.
 */
import type { Redis } from 'ioredis';
import { RateLimitedError } from '../../../../shared/errors.js';
import { keys } from '../../../../shared/keyspace.js';
import { execChecked } from '../../../../shared/redis-results.js';
import { runScript } from '../../../../shared/redis-scripts.js';
import { clientGroup, DEFAULT_IPV6_PREFIX } from '../http/client-address.js';

/** Misses allowed per address and window: a dashboard's first load fits, a crawl of names does not. */
export const STATS_MISS_BUDGET = 60;
export const STATS_MISS_WINDOW_SECONDS = 10 * 60;
/** The policy's name in the RateLimit fields. */
const POLICY = 'stats-misses';

export interface MissBudgetOptions {
  /** Default STATS_MISS_BUDGET. */
  limit?: number;
  /** Misses per API key and window (API_KEY_STATS_MISS_BUDGET). Default 10 x `limit`. */
  keyLimit?: number;
  /** Default STATS_MISS_WINDOW_SECONDS. */
  windowSeconds?: number;
  /** An IPv6 client is counted by its network of this many bits (IPV6_SUBNET_PREFIX). Default 64. */
  ipv6Prefix?: number;
}

/** One client's budget as it stands (GET /api/auth/usage). */
export interface MissBudgetUsage {
  limit: number;
  used: number;
  remaining: number;
  windowSeconds: number;
  /** Seconds until the window ends and the budget is whole again (the full window when nothing was spent). */
  resetSeconds: number;
}

export class MissBudget {
  private readonly limit: number;
  private readonly keyLimit: number;
  private readonly windowSeconds: number;
  private readonly ipv6Prefix: number;

  constructor(
    private readonly redis: Redis,
    options: MissBudgetOptions = {},
  ) {
    this.limit = options.limit ?? STATS_MISS_BUDGET;
    this.keyLimit = options.keyLimit ?? this.limit * 10;
    this.windowSeconds = options.windowSeconds ?? STATS_MISS_WINDOW_SECONDS;
    this.ipv6Prefix = options.ipv6Prefix ?? DEFAULT_IPV6_PREFIX;
  }

  /**
   * Takes one miss from the budget of `apiKeyId` when the request came with a key, else of
   * `address`, and returns the `RateLimit` fields that describe what is left (for the response
   * that spent it), or throws 429 `Too many requests` when the budget is spent.
   */
  async charge(address: string, apiKeyId?: string): Promise<Record<string, string>> {
    const { key, limit } = this.budgetOf(address, apiKeyId);
    const reply = (await runScript(this.redis, 'chargeMissBudget', [key], [this.windowSeconds])) as [number, number];
    const [count, ttl] = reply;
    // Counting on past the limit is harmless: the window's expiry was set by its first miss.
    const reset = ttl > 0 ? ttl : this.windowSeconds;
    const fields = {
      'RateLimit-Policy': `"${POLICY}";q=${limit};w=${this.windowSeconds}`,
      RateLimit: `"${POLICY}";r=${Math.max(0, limit - count)};t=${reset}`,
    };
    if (count > limit) throw new RateLimitedError('Too many requests', reset, fields);
    return fields;
  }

  /** The budget `charge` would spend from, as it stands; spends nothing. */
  async usage(address: string, apiKeyId?: string): Promise<MissBudgetUsage> {
    const { key, limit } = this.budgetOf(address, apiKeyId);
    const [count, ttlReply] = await execChecked(this.redis.pipeline().get(key).ttl(key));
    const used = Math.min(limit, Number(count ?? 0) || 0);
    const ttl = Number(ttlReply);
    return { limit, used, remaining: limit - used, windowSeconds: this.windowSeconds, resetSeconds: ttl > 0 ? ttl : this.windowSeconds };
  }

  private budgetOf(address: string, apiKeyId: string | undefined): { key: string; limit: number } {
    return apiKeyId === undefined
      ? { key: keys.statsMissBudget(clientGroup(address, this.ipv6Prefix)), limit: this.limit }
      : { key: keys.statsMissBudgetForKey(apiKeyId), limit: this.keyLimit };
  }
}
