/**
 * INDEX_PROVIDER=composite: Elfa, CoinGecko and X behind the one boundary, and what no provider
 * has computed by us (docs/providers.md, "How each field is filled"): the ranked lists (elfa.ts,
 * `elfaLists`) and the stats of a tracked account (smart-set-stats.ts).
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../../../../shared/logger.js';
import type { NewsItem } from '../../../../shared/market-types.js';
import type { ProvidersConfig } from '../../../../shared/provider-config.js';
import { providerKeys } from '../../../../shared/provider-keys.js';
import type { CountFn } from '../counters.js';
import { UpstreamError } from './upstream-error.js';
import { createCoinGeckoAdapter, type CoinGeckoAdapter, type CoinQuote } from './coingecko.js';
import { createElfaAdapter, elfaLists, type ElfaAdapter } from './elfa.js';
import { goneRoutes } from './gone-routes.js';
import { NEWS_MAX_POSTS, NEWS_WINDOW_MS, type AccountStats, type MarketProvider } from './market-provider.js';
import { createProviderHttp, firstOfNextMonth } from './upstream-http.js';
import { setPostsFromHeld, smartSetStats, type SetAccount } from './smart-set-stats.js';
import { readable } from './x-accounts.js';
import { createXAdapter, type XAdapter } from './x.js';
import { xRefusal } from './x-wire.js';

/** Smart-money mentions are counted over Elfa's window: the last 24 hours. */
const SMART_WINDOW_MS = 24 * 3_600_000;
/** Elfa's count of an account's posts is used for a day in the others' figures... */
const ELFA_FILL_FRESH_MS = 86_400_000;
/** ...and asked again for that account after an hour, the stats' own lifetime. */
const ELFA_FILL_ASK_AGAIN_MS = 3_600_000;

type ElfaFill = { totalPosts: number; avgEngagement: number | null };

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
  /** Elfa stats lookups (1 credit each) a UTC day may spend; undefined: no cap. */
  elfaLookupsPerDay?: number;
  /** When an Elfa 402 ends: the 1st of next month on a monthly plan (default), an hour on a prepaid key. */
  elfaOutOfCreditsUntil?: (now: Date) => Date;
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
        outOfCreditsUntil: options.elfaOutOfCreditsUntil ?? firstOfNextMonth,
        creditsPerCall: 1,
      }),
      goneRoutes('elfa', redis, logger, count, options.now),
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
    if ((await redis.exists(providerKeys.xReads())) === 0) await readPosts(new Date(now().getTime() - NEWS_WINDOW_MS), NEWS_MAX_POSTS);
    const from = now().getTime() - SMART_WINDOW_MS;
    // Held posts are the tracked accounts' only, matched by author id (a renamed account's count).
    return (await x.heldPosts()).filter((post) => Date.parse(post.publishedAt) >= from);
  }

  async function quotes(tickers: string[]): Promise<Map<string, CoinQuote>> {
    try {
      return await coingecko.quotes(tickers);
    } catch (error) {
      // Elfa's credits are spent already: serve the tokens as unresolved rather than throw them away.
      logger.warn(
        { provider: 'coingecko', err: (error as Error).message },
        'coingecko: no quotes this refresh; tokens keep their ticker as name and 0 as price change',
      );
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
      const known =
        tracked.get(username.toLowerCase()) ??
        (await x.accounts()).find((account) => account.username?.toLowerCase() === username.toLowerCase())?.configured;
      if (known === undefined) return null;
      return accountStats(known);
    },
  };

  /** One tracked account's stats over the whole tracked set; a figure that cannot be computed fails the lookup (503), not a zero. */
  async function accountStats(configured: string): Promise<AccountStats> {
    // X's spelling once resolved (remembered); while X cannot say, the operator's spelling.
    const resolved = await x.account(configured).catch((error: unknown) => {
      logger.warn({ provider: 'x', err: (error as Error).message }, 'x: cannot resolve a tracked username; answering it as configured');
      return undefined;
    });
    const spelled = resolved?.username ?? configured;
    const key = configured.toLowerCase();
    const from = new Date(now().getTime() - NEWS_WINDOW_MS);
    const accounts = await x.accounts();
    const byId = new Map(accounts.flatMap((account) => (account.id ? [[account.id, account.configured.toLowerCase()] as const] : [])));
    const byName = new Map<string, string>();
    for (const account of accounts) {
      const owner = account.configured.toLowerCase();
      for (const name of [account.configured, account.username ?? account.configured]) byName.set(name.toLowerCase(), owner);
    }
    const held = (await x.heldPosts()).filter((post) => Date.parse(post.publishedAt) >= from.getTime());
    const posts = setPostsFromHeld(held, { byId: (id) => byId.get(id), byName: (name) => byName.get(name.toLowerCase()) });
    // Read: its posts of the window were searched (a read state is kept per account id).
    const ids = accounts.flatMap((account) => (readable(account) ? [account.id] : []));
    const states = ids.length === 0 ? [] : await redis.hmget(providerKeys.xReads(), ...ids);
    const read = new Set(ids.filter((_, at) => states[at] !== null));

    const holdsOwn = posts.some((post) => post.authorKey === key);
    const external = await elfaFill(key, spelled, holdsOwn, from);
    const set: SetAccount[] = accounts.map((account) => ({
      key: account.configured.toLowerCase(),
      // X's count at the daily lookup; X's 0 with no other word is not taken as a reach.
      followers: account.followers || null,
      postsRead: account.id !== undefined && read.has(account.id),
      external: external.get(account.configured.toLowerCase()),
    }));
    const figures = smartSetStats(set, posts).get(key);
    const { indexScore, smartMoneyRank, totalPosts, avgEngagement } = figures ?? {};
    if (indexScore == null || smartMoneyRank == null || totalPosts == null || avgEngagement == null) {
      throw new UpstreamError(`stats of ${spelled}: not enough data yet (its posts were not read and Elfa could not say); not stored`, {
        retryable: false,
      });
    }
    return { username: spelled, indexScore, smartMoneyRank, totalPosts, avgEngagement, topTokens: figures?.topTokens ?? [] };
  }

  /** Elfa's count of the posts of tracked accounts whose posts we do not hold: this one's asked now when due, the others' as remembered. */
  async function elfaFill(key: string, spelled: string, holdsOwn: boolean, from: Date): Promise<Map<string, ElfaFill>> {
    const remembered = new Map<string, ElfaFill & { fetchedAt: string }>();
    for (const [name, raw] of Object.entries(await redis.hgetall(providerKeys.elfaAccountPosts()))) {
      const entry = JSON.parse(raw) as ElfaFill & { fetchedAt: string };
      if (Date.parse(entry.fetchedAt) >= now().getTime() - ELFA_FILL_FRESH_MS) remembered.set(name, entry);
    }
    const ownFetched = Date.parse(remembered.get(key)?.fetchedAt ?? '');
    if (holdsOwn || ownFetched >= now().getTime() - ELFA_FILL_ASK_AGAIN_MS || !(await takeLookup())) return remembered;
    try {
      const answer = await elfa.accountPosts(spelled, from, now());
      // An empty answer is no figure: Elfa may not follow the account, which is not "posted nothing".
      if (answer !== 'gone' && answer.totalPosts !== null && answer.totalPosts > 0) {
        const entry = { totalPosts: answer.totalPosts, avgEngagement: answer.avgEngagement, fetchedAt: now().toISOString() };
        remembered.set(key, entry);
        await redis.hset(providerKeys.elfaAccountPosts(), key, JSON.stringify(entry));
      }
    } catch (error) {
      logger.warn(
        { provider: 'elfa', err: (error as Error).message },
        "elfa: no count of the account's posts this time; its stats come from X alone",
      );
    }
    return remembered;
  }

  /** One Elfa stats lookup from today's budget (docs/providers.md, "The Elfa credit budget"); false when spent. */
  async function takeLookup(): Promise<boolean> {
    const perDay = options.elfaLookupsPerDay;
    if (perDay === undefined) return true;
    const day = providerKeys.elfaLookups(now().toISOString().slice(0, 10));
    const [[, used] = [null, 0]] =
      (await redis
        .multi()
        .incr(day)
        .expire(day, 2 * 86_400)
        .exec()) ?? [];
    return Number(used) <= perDay;
  }
}
