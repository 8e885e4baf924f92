/**
 * Elfa AI API v2 (docs/providers.md, "Elfa AI API v2"): what we ask and read, and `elfaLists`,
 * every ranked list of INDEX_PROVIDER=composite made from Elfa's. The `parse*` functions are the
 * adapter's reading of each body (scripts/providers-replay.ts replays captures through them).
 */
import { WINDOW_MS, type ExtraWindow } from '../../../../shared/trending-windows.js';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { NewsItem, TrendingCa, TrendingToken } from '../../../../shared/market-types.js';
import { providerKeys } from '../../../../shared/provider-keys.js';
import { execChecked } from '../../../../shared/redis-results.js';
import type { GoneRoutes } from './gone-routes.js';
import type { ListCalls } from './market-provider.js';
import type { ProviderHttp } from './upstream-http.js';
import { lenientCount, numeric, parseItems } from './tolerant.js';
import { UpstreamError } from './upstream-error.js';

/** The window Elfa counts mentions over: the trending lists are "the last 24 hours". */
export const ELFA_WINDOW = '24h';
/** Retired by Elfa on 28 October 2026: never called. */
export const RETIRED_SMART_STATS = '/v2/account/smart-stats';
const ACCOUNT_POSTS_PATH = '/v2/data/keyword-mentions';

export interface ElfaToken {
  token: string;
  mentions: number;
}

export interface ElfaContract {
  address: string;
  chain: string;
  mentions: number;
}

/** One account's own posts of a window, as Elfa counts them (keyword-mentions?accountName=). */
export interface ElfaAccountPosts {
  /** Elfa's whole match (`metadata.total`, capped by Elfa at 10,000); null when it does not say. */
  totalPosts: number | null;
  /** Our engagementScore averaged over the posts returned (up to 30); null when none has a count. */
  avgEngagement: number | null;
}

export interface ElfaKeyStatus {
  /** The month's credits; null when the status names none (a prepaid key), never 0. */
  monthlyLimit: number | null;
  monthlyRemaining: number | null;
  /** The day's credits; null when the status names none. */
  dailyLimit: number | null;
  /** `deposit` (prepaid) or `arrears`, when the status says. */
  billingMode: string | null;
}

export interface ElfaAdapter {
  /** Elfa's trending tokens over `window` (its `timeWindow`; the 24 hours without). */
  trendingTokens(window?: ExtraWindow): Promise<ElfaToken[]>;
  trendingContracts(window?: ExtraWindow): Promise<ElfaContract[]>;
  /** The account's posts in [from, to]; 'gone' when the route answers 404/410 (or did within a week). */
  accountPosts(username: string, from: Date, to: Date): Promise<ElfaAccountPosts | 'gone'>;
  keyStatus(): Promise<ElfaKeyStatus>;
}

const tokenItem = z.object({
  token: z
    .string()
    .transform((token) => token.trim().replace(/^\$/, '').toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]{1,20}$/)),
  current_count: lenientCount(),
});

const contractItem = z.object({
  contractAddress: z.string().trim().min(20).max(100),
  chain: z
    .string()
    .trim()
    .min(1)
    .transform((chain) => chain.toLowerCase()),
  mentionCount: lenientCount(),
});

/** A count that may be absent or null: unknown (null), never read as 0. */
const knownCount = () => z.preprocess(numeric(null), z.number().finite().nonnegative().nullable());

/** A limit of 0 or less names no budget (the prepaid status): unknown, like null. */
const limit = () => knownCount().transform((value) => (value !== null && value > 0 ? value : null));
const period = z.object({ monthly: limit().optional(), daily: limit().optional() }).nullable().optional();

const keyStatusData = z.object({
  limits: period,
  remainingRequests: z.object({ monthly: knownCount().optional(), daily: knownCount().optional() }).nullable().optional(),
  monthlyRequestLimit: limit().optional(),
  dailyRequestLimit: limit().optional(),
  billingMode: z.string().nullable().optional(),
});

const mentionItem = z.object({
  tweetId: z.string().min(1),
  likeCount: knownCount().optional(),
  repostCount: knownCount().optional(),
  quoteCount: knownCount().optional(),
  replyCount: knownCount().optional(),
  bookmarkCount: knownCount().optional(),
  account: z.object({ username: z.string() }).nullable().optional(),
});

/** The list of either envelope (`data.data[]` or `data[]`); `success: false` on a 200 is an error. */
function listOf(body: unknown, path: string): unknown[] {
  const data = dataOf(body, path);
  if (Array.isArray(data)) return data;
  const inner = (data as { data?: unknown } | null | undefined)?.data;
  if (Array.isArray(inner)) return inner;
  throw new UpstreamError(`elfa ${path}: no list in the envelope`, { retryable: false });
}

function dataOf(body: unknown, path: string): unknown {
  const envelope = typeof body === 'object' && body !== null ? (body as { success?: unknown; data?: unknown }) : undefined;
  if (!envelope || envelope.success === false) throw new UpstreamError(`elfa ${path}: success false or no envelope`, { retryable: false });
  return envelope.data;
}

/** One entry per key, the mentions summed. */
function summed<Item extends { mentions: number }>(items: readonly Item[], key: (item: Item) => string): Item[] {
  const merged = new Map<string, Item>();
  for (const item of items) {
    const known = merged.get(key(item));
    if (known) known.mentions += item.mentions;
    else merged.set(key(item), { ...item });
  }
  return [...merged.values()];
}

/** trending-tokens: valid items, upper case without `$`, one entry per token. */
export function parseTrendingTokens(body: unknown): ElfaToken[] {
  const items = parseItems(listOf(body, '/v2/aggregations/trending-tokens'), tokenItem).valid;
  const tokens = items.map((item) => ({ token: item.token, mentions: item.current_count }));
  return summed(tokens, (item) => item.token);
}

export function parseTrendingContracts(body: unknown, path = '/v2/aggregations/trending-cas'): ElfaContract[] {
  return parseItems(listOf(body, path), contractItem).valid.map((item) => ({
    address: item.contractAddress,
    chain: item.chain,
    mentions: item.mentionCount,
  }));
}

/** key-status: a limit that is absent, null or 0 is unknown (null), never a budget of 0. */
export function parseKeyStatus(body: unknown): ElfaKeyStatus {
  const parsed = keyStatusData.safeParse(dataOf(body, '/v2/key-status'));
  if (!parsed.success)
    throw new UpstreamError(`elfa /v2/key-status: invalid data (${parsed.error.issues[0]?.message ?? 'schema'})`, { retryable: false });
  const { data } = parsed;
  return {
    monthlyLimit: data.limits?.monthly ?? data.monthlyRequestLimit ?? null,
    monthlyRemaining: data.remainingRequests?.monthly ?? null,
    dailyLimit: data.limits?.daily ?? data.dailyRequestLimit ?? null,
    billingMode: data.billingMode ?? null,
  };
}

/** keyword-mentions?accountName=: the account's own posts; a missing list is an error, not zeros. */
export function parseAccountPosts(body: unknown, username: string): ElfaAccountPosts {
  const items = parseItems(listOf(body, ACCOUNT_POSTS_PATH), mentionItem).valid.filter(
    (item) => !item.account || item.account.username.toLowerCase() === username.toLowerCase(),
  );
  const scores = items
    .filter((item) =>
      [item.likeCount, item.repostCount, item.quoteCount, item.replyCount, item.bookmarkCount].some((count) => typeof count === 'number'),
    )
    // Our engagementScore, as for X's posts (x-wire.ts).
    .map(
      (item) =>
        (item.likeCount ?? 0) + (item.replyCount ?? 0) + (item.bookmarkCount ?? 0) + 2 * ((item.repostCount ?? 0) + (item.quoteCount ?? 0)),
    );
  const metadata = (body as { metadata?: { total?: unknown } }).metadata;
  const total = knownCount().safeParse(metadata?.total);
  return {
    totalPosts: total.success && total.data !== null ? total.data : items.length < 30 ? items.length : null,
    avgEngagement: scores.length > 0 ? Math.round((scores.reduce((sum, score) => sum + score, 0) / scores.length) * 10) / 10 : null,
  };
}

/** Elfa's `timeWindow` takes our windows as they are spelled (30m to 30d: 1h, 4h, 24h, 7d, 30d). */
const trendingQuery = (window: ExtraWindow | undefined) => ({ timeWindow: window ?? ELFA_WINDOW, page: 1, pageSize: 50 }) as const;

export function createElfaAdapter(http: ProviderHttp, gone?: GoneRoutes): ElfaAdapter {
  async function contractsOf(network: 'twitter' | 'telegram', window: ExtraWindow | undefined): Promise<ElfaContract[]> {
    const path = `/v2/aggregations/trending-cas/${network}`;
    const { body } = await http.get(path, { searchParams: trendingQuery(window) });
    return parseTrendingContracts(body, path);
  }

  return {
    async trendingTokens(window) {
      const { body } = await http.get('/v2/aggregations/trending-tokens', { searchParams: trendingQuery(window) });
      return parseTrendingTokens(body);
    },

    async trendingContracts(window) {
      const lists = [await contractsOf('twitter', window), await contractsOf('telegram', window)];
      return summed(lists.flat(), (item) => contractKey(item.chain, item.address));
    },

    async accountPosts(username, from, to) {
      if (await gone?.isGone(ACCOUNT_POSTS_PATH)) return 'gone';
      const searchParams = {
        accountName: username,
        from: Math.floor(from.getTime() / 1000),
        to: Math.floor(to.getTime() / 1000),
        limit: 30,
        reposts: 'false',
      };
      const { status, body } = await http.get(ACCOUNT_POSTS_PATH, { searchParams, timeoutMs: 3_000, accept: [404, 410] });
      // An account Elfa does not know is an empty list here: a 404 or 410 is the route, for every account.
      if (status === 404 || status === 410) {
        await gone?.markGone(ACCOUNT_POSTS_PATH, status);
        return 'gone';
      }
      return parseAccountPosts(body, username);
    },

    async keyStatus() {
      const { body } = await http.get('/v2/key-status', { timeoutMs: 5_000 });
      return parseKeyStatus(body);
    },
  };
}

/** One contract address across both networks' lists: EVM hex in any case, Solana's base58 as it is (case-sensitive). */
function contractKey(chain: string, address: string): string {
  return `${chain}:${/^0x[0-9a-fA-F]+$/.test(address) ? address.toLowerCase() : address}`;
}

export interface ElfaListDeps {
  redis: Redis;
  now: () => Date;
  /** The tracked accounts' posts of the smart-money window (Elfa's 24 hours). */
  smartPosts: () => Promise<NewsItem[]>;
  /** Names and 24 h price changes by ticker (CoinGecko); empty when they cannot be had. */
  quotes: (tickers: string[]) => Promise<ReadonlyMap<string, { name: string; priceChange24h: number | null }>>;
}

/** The held posts of the window; they are the last 24 hours, which a 7 d or 30 d list counts (docs/providers.md, "Windows"). */
function withinWindow(posts: NewsItem[], window: ExtraWindow | undefined, now: Date): NewsItem[] {
  if (!window || WINDOW_MS[window] >= WINDOW_MS['24h']) return posts;
  const since = now.getTime() - WINDOW_MS[window];
  return posts.filter((post) => Date.parse(post.publishedAt) >= since);
}

/** Our ranking: smart-money mentions, then mentions, then the item's key. */
function rank<Item extends { smartMoneyMentions: number; mentions: number }>(list: Item[], key: (item: Item) => string): Item[] {
  return list.sort((a, b) => b.smartMoneyMentions - a.smartMoneyMentions || b.mentions - a.mentions || key(a).localeCompare(key(b)));
}

/** Every list kind's call from Elfa's lists (docs/providers.md, "How each field is filled"); an empty list keeps the snapshot. */
export function elfaLists(elfa: ElfaAdapter, { redis, now, smartPosts, quotes }: ElfaListDeps): ListCalls {
  return {
    async trendingTokens(window) {
      const tokens = await elfa.trendingTokens(window);
      if (tokens.length === 0) throw new UpstreamError('elfa trending-tokens: no valid item; the snapshot is kept', { retryable: false });
      const [quoted, held] = await Promise.all([quotes(tokens.map((token) => token.token)), smartPosts()]);
      const posts = withinWindow(held, window, now());
      const list: TrendingToken[] = tokens.map(({ token, mentions }) => {
        const quote = quoted.get(token);
        return {
          token,
          name: quote?.name ?? token,
          mentions,
          smartMoneyMentions: posts.filter((post) => post.tokens.includes(token)).length,
          priceChange24h: quote?.priceChange24h ?? 0,
        };
      });
      return rank(list, (item) => item.token);
    },

    async trendingContracts(window) {
      const contracts = await elfa.trendingContracts(window);
      if (contracts.length === 0) throw new UpstreamError('elfa trending-cas: no valid item; the snapshot is kept', { retryable: false });
      const seenAt = now().toISOString();
      const fields = contracts.map((contract) => contractKey(contract.chain, contract.address));
      const tx = redis.multi();
      for (const field of fields) tx.hsetnx(providerKeys.caFirstSeen(), field, seenAt);
      tx.hmget(providerKeys.caFirstSeen(), ...fields);
      const stored = await execChecked(tx).catch((error: unknown) => {
        throw new Error(`redis: first-seen times were not stored: ${(error as Error).message}`, { cause: error });
      });
      const firstSeen = stored.at(-1);
      if (!Array.isArray(firstSeen)) throw new Error('redis: first-seen times were not stored');
      const posts = withinWindow(await smartPosts(), window, now());
      const list: TrendingCa[] = contracts.map((contract, at) => {
        const needle = contract.address.startsWith('0x') ? contract.address.toLowerCase() : contract.address;
        return {
          address: contract.address,
          chain: contract.chain,
          mentions: contract.mentions,
          smartMoneyMentions: posts.filter((post) => (needle.startsWith('0x') ? post.text.toLowerCase() : post.text).includes(needle))
            .length,
          firstSeenAt: typeof firstSeen[at] === 'string' ? firstSeen[at] : seenAt,
        };
      });
      return rank(list, (item) => item.address);
    },
  };
}
