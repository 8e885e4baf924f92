/**
 * Elfa AI API v2 (docs/providers.md, "Elfa"): trending tokens, trending contract addresses
 * (Twitter and Telegram, merged), one account's smart stats, and the key's status. 1 credit a
 * call, key-status free; `x-elfa-api-key` on every request. Elfa is the source of every ranked
 * list of shared/snapshot-kinds.ts with INDEX_PROVIDER=composite: `elfaLists` makes them our items, with
 * what the composite computes itself (docs/providers.md, "How each field is filled").
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { NewsItem, TrendingCa, TrendingToken } from '../../../../shared/market-types.js';
import { providerKeys } from '../../../../shared/provider-keys.js';
import type { ListCalls } from './market-provider.js';
import type { ProviderHttp } from './provider-http.js';
import { lenientCount, parseItems } from './tolerant.js';
import { UpstreamError } from '../upstream-error.js';

/** The window Elfa counts mentions over: the trending lists are "the last 24 hours". */
export const ELFA_WINDOW = '24h';

export interface ElfaToken {
  token: string;
  mentions: number;
}

export interface ElfaContract {
  address: string;
  chain: string;
  mentions: number;
}

export interface ElfaSmartStats {
  averageEngagement: number;
  averageReach: number;
  smartFollowingCount: number;
  followerCount: number;
}

export interface ElfaKeyStatus {
  monthlyLimit: number | undefined;
  monthlyRemaining: number | undefined;
}

export interface ElfaAdapter {
  trendingTokens(): Promise<ElfaToken[]>;
  trendingContracts(): Promise<ElfaContract[]>;
  /** null: Elfa does not know the account (404 "User not found"). */
  smartStats(username: string): Promise<ElfaSmartStats | null>;
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
  chain: z.string().trim().min(1).transform((chain) => chain.toLowerCase()),
  mentionCount: lenientCount(),
});

const smartStatsData = z.object({
  averageEngagement: lenientCount(),
  averageReach: lenientCount(),
  smartFollowingCount: lenientCount(),
  followerCount: lenientCount().optional(),
});

const keyStatusData = z.object({
  limits: z.object({ monthly: lenientCount().optional() }).optional(),
  remainingRequests: z.object({ monthly: lenientCount().optional() }).optional(),
  monthlyRequestLimit: lenientCount().optional(),
});

/**
 * The list of either envelope: aggregations nest the page (`data.data[]`), data endpoints put it
 * at `data[]` with paging in `metadata`. `success: false` on a 200 is an error.
 */
function listOf(body: unknown, path: string): unknown[] {
  const envelope = typeof body === 'object' && body !== null ? (body as { success?: unknown; data?: unknown }) : undefined;
  if (!envelope || envelope.success === false) throw new UpstreamError(`elfa ${path}: success false or no envelope`, { retryable: false });
  if (Array.isArray(envelope.data)) return envelope.data;
  const inner = typeof envelope.data === 'object' && envelope.data !== null ? (envelope.data as { data?: unknown }).data : undefined;
  if (Array.isArray(inner)) return inner;
  throw new UpstreamError(`elfa ${path}: no list in the envelope`, { retryable: false });
}

function objectOf<T>(body: unknown, path: string, schema: z.ZodType<T>): T {
  const envelope = typeof body === 'object' && body !== null ? (body as { success?: unknown; data?: unknown }) : undefined;
  if (!envelope || envelope.success === false) throw new UpstreamError(`elfa ${path}: success false or no envelope`, { retryable: false });
  const parsed = schema.safeParse(envelope.data);
  if (!parsed.success) throw new UpstreamError(`elfa ${path}: invalid data (${parsed.error.issues[0]?.message ?? 'schema'})`, { retryable: false });
  return parsed.data;
}

const TRENDING_QUERY = { timeWindow: ELFA_WINDOW, page: 1, pageSize: 50 } as const;

export function createElfaAdapter(http: ProviderHttp): ElfaAdapter {
  async function contractsOf(network: 'twitter' | 'telegram'): Promise<ElfaContract[]> {
    const path = `/v2/aggregations/trending-cas/${network}`;
    const { body } = await http.get(path, { searchParams: TRENDING_QUERY });
    return parseItems(listOf(body, path), contractItem).valid.map((item) => ({
      address: item.contractAddress,
      chain: item.chain,
      mentions: item.mentionCount,
    }));
  }

  return {
    async trendingTokens() {
      const path = '/v2/aggregations/trending-tokens';
      const { body } = await http.get(path, { searchParams: TRENDING_QUERY });
      const merged = new Map<string, ElfaToken>();
      for (const item of parseItems(listOf(body, path), tokenItem).valid) {
        const known = merged.get(item.token);
        if (known) known.mentions += item.current_count;
        else merged.set(item.token, { token: item.token, mentions: item.current_count });
      }
      return [...merged.values()];
    },

    async trendingContracts() {
      const lists = [await contractsOf('twitter'), await contractsOf('telegram')];
      const merged = new Map<string, ElfaContract>();
      for (const item of lists.flat()) {
        const key = contractKey(item.chain, item.address);
        const known = merged.get(key);
        if (known) known.mentions += item.mentions;
        else merged.set(key, { ...item });
      }
      return [...merged.values()];
    },

    async smartStats(username) {
      const path = '/v2/account/smart-stats';
      const { status, body } = await http.get(path, { searchParams: { username }, timeoutMs: 3_000, accept: [404] });
      if (status === 404) return null;
      const data = objectOf(body, path, smartStatsData);
      return { ...data, followerCount: data.followerCount ?? 0 };
    },

    async keyStatus() {
      const path = '/v2/key-status';
      const { body } = await http.get(path, { timeoutMs: 5_000 });
      const data = objectOf(body, path, keyStatusData);
      return { monthlyLimit: data.limits?.monthly ?? data.monthlyRequestLimit, monthlyRemaining: data.remainingRequests?.monthly };
    },
  };
}

/**
 * One contract address across both networks' lists: EVM addresses are hex (any case, checksum
 * or not), so they are compared lower case; Solana's base58 is case-sensitive.
 */
export function contractKey(chain: string, address: string): string {
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

/** Our ranking: smart-money mentions, then mentions, then the item's key. */
function rank<Item extends { smartMoneyMentions: number; mentions: number }>(list: Item[], key: (item: Item) => string): Item[] {
  return list.sort((a, b) => b.smartMoneyMentions - a.smartMoneyMentions || b.mentions - a.mentions || key(a).localeCompare(key(b)));
}

/**
 * Every list kind's call (INDEX_PROVIDER=composite) from Elfa's lists: smart-money mentions
 * counted in the tracked posts, names and price changes from CoinGecko, first-seen times kept
 * in Redis (set once, never moved). An empty list keeps the snapshot.
 */
export function elfaLists(elfa: ElfaAdapter, { redis, now, smartPosts, quotes }: ElfaListDeps): ListCalls {
  return {
    async trendingTokens() {
      const tokens = await elfa.trendingTokens();
      if (tokens.length === 0) throw new UpstreamError('elfa trending-tokens: no valid item; the snapshot is kept', { retryable: false });
      const [quoted, posts] = await Promise.all([quotes(tokens.map((token) => token.token)), smartPosts()]);
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

    async trendingContracts() {
      const contracts = await elfa.trendingContracts();
      if (contracts.length === 0) throw new UpstreamError('elfa trending-cas: no valid item; the snapshot is kept', { retryable: false });
      const seenAt = now().toISOString();
      const fields = contracts.map((contract) => contractKey(contract.chain, contract.address));
      const pipeline = redis.multi();
      for (const field of fields) pipeline.hsetnx(providerKeys.caFirstSeen(), field, seenAt);
      pipeline.hmget(providerKeys.caFirstSeen(), ...fields);
      const results = await pipeline.exec();
      const firstSeen = results?.at(-1)?.[1];
      if (!results || results.some(([error]) => error) || !Array.isArray(firstSeen)) throw new Error('redis: first-seen times were not stored');
      const posts = await smartPosts();
      const list: TrendingCa[] = contracts.map((contract, at) => {
        const needle = contract.address.startsWith('0x') ? contract.address.toLowerCase() : contract.address;
        return {
          address: contract.address,
          chain: contract.chain,
          mentions: contract.mentions,
          smartMoneyMentions: posts.filter((post) => (needle.startsWith('0x') ? post.text.toLowerCase() : post.text).includes(needle)).length,
          firstSeenAt: typeof firstSeen[at] === 'string' ? firstSeen[at] : seenAt,
        };
      });
      return rank(list, (item) => item.address);
    },
  };
}
