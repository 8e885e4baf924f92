/**
 * INDEX_PROVIDER=composite: Elfa, CoinGecko and X behind the one boundary, and what no provider
 * has computed by us (docs/providers.md, "How each field is filled"): the ranked lists from
 * Elfa's (elfa.ts, `elfaLists`: smart-money mentions from the tracked accounts' posts, first-seen
 * times, the ranking), indexScore and smartMoneyRank.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../../../../shared/logger.js';
import type { NewsItem } from '../../../../shared/market-types.js';
import type { ProvidersConfig } from '../../../../shared/provider-config.js';
import { providerKeys } from '../../../../shared/provider-keys.js';
import type { CountFn } from '../counters.js';
import { NEWS_MAX_POSTS, NEWS_WINDOW_MS } from '../jobs/refresh-news.js';
import { createCoinGeckoAdapter, type CoinGeckoAdapter, type CoinQuote } from './coingecko.js';
import { createElfaAdapter, elfaLists, type ElfaAdapter, type ElfaSmartStats } from './elfa.js';
import type { AccountStats, MarketProvider } from './market-provider.js';
import { createProviderHttp, firstOfNextMonth } from './provider-http.js';
import { createXAdapter, type XAdapter } from './x.js';
import { xRefusal } from './x-wire.js';

/** Smart-money mentions are counted over Elfa's window: the last 24 hours. */
const SMART_WINDOW_MS = 24 * 3_600_000;
/** Smart stats older than this are left out of the indexScore ranking. */
const STATS_FRESH_MS = 7 * 86_400_000;
/** The weights of indexScore (docs/providers.md). */
const SCORE_WEIGHTS = { smartFollowingCount: 0.5, averageEngagement: 0.3, averageReach: 0.2 } as const;

export interface CompositeAdapters {
  elfa: ElfaAdapter;
  coingecko: CoinGeckoAdapter;
  x: XAdapter;
}

export interface CompositeOptions {
  config: ProvidersConfig;
  redis: Redis;
  logger: Logger;
  count: CountFn;
  now?: () => Date;
  /** Per-request timeout of the listings (tests shorten it). Default 10 s. */
  timeoutMs?: number;
  /** The longest 429 wait sat out (tests shorten it). Default 60 s. */
  maxRateLimitWaitMs?: number;
}

export function createAdapters(options: CompositeOptions): CompositeAdapters {
  const { config, redis, logger, count } = options;
  const common = { redis, logger, count, now: options.now, timeoutMs: options.timeoutMs, maxRateLimitWaitMs: options.maxRateLimitWaitMs };
  const cgHeader = config.coingecko.plan === 'pro' ? 'x-cg-pro-api-key' : 'x-cg-demo-api-key';
  return {
    elfa: createElfaAdapter(
      createProviderHttp({
        ...common,
        provider: 'elfa',
        baseUrl: config.elfa.baseUrl,
        headers: { 'x-elfa-api-key': config.elfa.apiKey },
        secrets: [config.elfa.apiKey],
        keyVariable: 'ELFA_API_KEY',
        outOfCreditsUntil: firstOfNextMonth,
        creditsPerCall: 1,
      }),
    ),
    coingecko: createCoinGeckoAdapter(
      createProviderHttp({
        ...common,
        provider: 'coingecko',
        baseUrl: config.coingecko.baseUrl,
        headers: config.coingecko.apiKey ? { [cgHeader]: config.coingecko.apiKey } : {},
        secrets: config.coingecko.apiKey ? [config.coingecko.apiKey] : [],
        keyVariable: 'COINGECKO_API_KEY (and COINGECKO_PLAN)',
        outOfCreditsUntil: firstOfNextMonth,
        creditsPerCall: 1,
      }),
      redis,
      config.coingecko.pins,
    ),
    x: createXAdapter({
      http: createProviderHttp({
        ...common,
        provider: 'x',
        baseUrl: config.x.baseUrl,
        headers: { authorization: `Bearer ${config.x.bearerToken}` },
        secrets: [config.x.bearerToken],
        keyVariable: 'X_BEARER_TOKEN',
        // Prepaid credits can be topped up at any time: look again after an hour.
        outOfCreditsUntil: (now) => new Date(now.getTime() + 3_600_000),
        refusal: xRefusal,
      }),
      redis,
      logger,
      now: options.now,
      trackedAccounts: config.trackedAccounts,
      queryMaxLength: config.x.queryMaxLength,
      requestsPerRefresh: config.x.requestsPerRefresh,
    }),
  };
}

export function createCompositeProvider(options: CompositeOptions, adapters: CompositeAdapters = createAdapters(options)): MarketProvider {
  const { config, redis, logger } = options;
  const now = options.now ?? (() => new Date());
  const { elfa, coingecko, x } = adapters;
  const tracked = new Map(config.trackedAccounts.map((name) => [name.toLowerCase(), name]));

  /** One read of the timelines at a time in this process: refreshes running together share it (X bills per post). */
  let reading: Promise<NewsItem[]> | undefined;
  const readPosts = (since: Date, max: number): Promise<NewsItem[]> =>
    (reading ??= x.posts(since, max).finally(() => (reading = undefined)));

  /**
   * The tracked posts held (X), within the smart-money window. Normally the news refresh has
   * read them; on a first start, when none was ever read, they are read here (the news refresh
   * running at the same moment may read the same posts once more: X bills a post once a day).
   */
  async function recentPosts(): Promise<NewsItem[]> {
    if ((await redis.exists(providerKeys.xReads(), providerKeys.xSinceIds())) === 0) await readPosts(new Date(now().getTime() - NEWS_WINDOW_MS), NEWS_MAX_POSTS);
    const from = now().getTime() - SMART_WINDOW_MS;
    // Held posts are the tracked accounts' only, matched by author id (a renamed account's count).
    return (await x.heldPosts()).filter((post) => Date.parse(post.publishedAt) >= from);
  }

  async function quotes(tickers: string[]): Promise<Map<string, CoinQuote>> {
    try {
      return await coingecko.quotes(tickers);
    } catch (error) {
      // Elfa's credits are spent already: serve the tokens as unresolved rather than throw them away.
      logger.warn({ provider: 'coingecko', err: (error as Error).message }, 'coingecko: no quotes this refresh; tokens keep their ticker as name and 0 as price change');
      return new Map();
    }
  }

  return {
    ...elfaLists(elfa, { redis, now, smartPosts: recentPosts, quotes }),

    posts(since, max) {
      return readPosts(since, max);
    },

    async account(username) {
      // Only tracked accounts are in the index (by the configured spelling or X's current one): any other name costs no upstream call.
      const known = tracked.get(username.toLowerCase()) ?? (await x.accounts()).find((account) => account.username?.toLowerCase() === username.toLowerCase())?.configured;
      if (known === undefined) return null;
      // X's spelling once resolved (remembered); while X cannot say, the operator's spelling.
      const resolved = await x.account(known).catch((error: unknown) => {
        logger.warn({ provider: 'x', err: (error as Error).message }, 'x: cannot resolve a tracked username; answering it as configured');
        return undefined;
      });
      const spelled = resolved?.username ?? known;
      const stats = (await elfa.smartStats(spelled)) ?? { averageEngagement: 0, averageReach: 0, smartFollowingCount: 0, followerCount: 0 };
      await redis.hset(providerKeys.smartStats(), spelled.toLowerCase(), JSON.stringify({ ...stats, fetchedAt: now().toISOString() }));
      const { indexScore, smartMoneyRank } = await scoreAmongTracked(spelled.toLowerCase());
      const posts = (await x.heldPosts()).filter((post) => (resolved?.id ? post.authorId === resolved.id : post.author.toLowerCase() === spelled.toLowerCase()));
      return {
        username: spelled,
        indexScore,
        smartMoneyRank,
        totalPosts: posts.length,
        avgEngagement: stats.averageEngagement,
        topTokens: topTokens(posts),
      } satisfies AccountStats;
    },
  };

  /** indexScore and smartMoneyRank of `key` over the tracked accounts whose smart stats are held and fresh. */
  async function scoreAmongTracked(key: string): Promise<{ indexScore: number; smartMoneyRank: number }> {
    const held = await redis.hgetall(providerKeys.smartStats());
    const fresh = now().getTime() - STATS_FRESH_MS;
    const set = new Map<string, ElfaSmartStats>();
    for (const [name, raw] of Object.entries(held)) {
      const entry = JSON.parse(raw) as ElfaSmartStats & { fetchedAt: string };
      if (tracked.has(name) && Date.parse(entry.fetchedAt) >= fresh) set.set(name, entry);
    }
    const scores = indexScores(set);
    const own = scores.get(key) ?? 0;
    const higher = [...scores.values()].filter((score) => score > own).length;
    return { indexScore: own, smartMoneyRank: higher + 1 };
  }
}

/**
 * indexScore (docs/providers.md): for each of Elfa's smartFollowingCount, averageEngagement and
 * averageReach, the share of the set at or below the account (its percentile, 0-1), weighted
 * 0.5, 0.3 and 0.2, times 100, to one decimal. The top account of every figure scores 100.
 */
export function indexScores(set: ReadonlyMap<string, ElfaSmartStats>): Map<string, number> {
  const entries = [...set.entries()];
  const result = new Map<string, number>();
  for (const [name, stats] of entries) {
    let score = 0;
    for (const [figure, weight] of Object.entries(SCORE_WEIGHTS) as [keyof typeof SCORE_WEIGHTS, number][]) {
      const atOrBelow = entries.filter(([, other]) => other[figure] <= stats[figure]).length;
      score += weight * (atOrBelow / entries.length);
    }
    result.set(name, Math.round(score * 1000) / 10);
  }
  return result;
}

/** The five tokens the posts mention most, most first (ties alphabetical). */
export function topTokens(posts: readonly NewsItem[]): string[] {
  const counts = new Map<string, number>();
  for (const post of posts) for (const token of post.tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 5)
    .map(([token]) => token);
}
