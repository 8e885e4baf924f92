/**
 * A budget of stats misses per client address, or per API key (a larger one: the client is known
 * and its key can be revoked), in Redis fixed windows shared by the replicas. A miss is the one
 * anonymous request that costs an upstream call, which providers meter (1,000 unknown usernames
 * once cost 1,000 calls in 3 s). Spent: 429 with the IETF draft's RateLimit fields.
 */
import type { Redis } from 'ioredis';
import { RateLimitedError } from '../../../../shared/errors.js';
import { keys } from '../../../../shared/keyspace.js';
import { execChecked } from '../../../../shared/redis-results.js';
import { runScript } from '../../../../shared/redis-scripts.js';
import { clientGroup, DEFAULT_IPV6_PREFIX } from '../http/client-address.js';

/** Per address and window: a dashboard's first load fits, a crawl of names does not. */
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
  /** IPV6_SUBNET_PREFIX. Default 64. */
  ipv6Prefix?: number;
}

/** One client's budget as it stands (GET /api/auth/usage). */
export interface MissBudgetUsage {
  limit: number;
  used: number;
  remaining: number;
  windowSeconds: number;
  /** Seconds until the budget is whole again (the full window when nothing was spent). */
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

  /** Takes one miss from the key's budget, else the address's: the RateLimit fields of what is left, or 429 when spent. */
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
