/**
 * The upstream's payloads (docs/index-api.md), validated strictly and mapped to our shapes.
 * An invalid item invalidates the whole payload: a snapshot is replaced only by a whole one.
 */
import { z } from 'zod';
import type { NewsItem, TrendingCa, TrendingToken, UsernameStats } from '../../../../shared/market-types.js';
import type { BaseListKind, ListItem } from '../../../../shared/snapshot-kinds.js';

const count = z.number().int().nonnegative();
const timestamp = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'not a timestamp');
const iso = (value: string) => new Date(value).toISOString();

const trendingTokensPayload = z.object({
  tokens: z
    .array(
      z.object({
        symbol: z.string().min(1).max(20),
        name: z.string().min(1),
        mentions: count,
        smart_mentions: count,
        price_change_24h: z.number().finite(),
      }),
    )
    .min(1),
});

const trendingContractsPayload = z.object({
  contracts: z
    .array(
      z.object({
        address: z.string().min(20).max(100),
        chain: z.string().min(1),
        mentions: count,
        smart_mentions: count,
        first_seen_at: timestamp,
      }),
    )
    .min(1),
});

export const postsPayload = z.object({
  posts: z.array(
    z.object({
      id: z.string().min(1),
      text: z.string(),
      author: z.object({ username: z.string().min(1), followers: count }),
      created_at: timestamp,
      tokens: z.array(z.string().min(1)),
      engagement: z.number().finite().nonnegative(),
    }),
  ),
  next_cursor: z.string().min(1).nullable(),
});

export const accountPayload = z.object({
  username: z.string().min(1),
  score: z.number().min(0).max(100),
  smart_rank: z.number().int().positive(),
  posts_count: count,
  avg_engagement: z.number().finite().nonnegative(),
  top_tokens: z.array(z.string().min(1)),
});

export type AccountPayload = z.infer<typeof accountPayload>;

export const toAccountStats = (a: AccountPayload): Omit<UsernameStats, 'cachedAt'> => ({
  username: a.username,
  indexScore: a.score,
  smartMoneyRank: a.smart_rank,
  totalPosts: a.posts_count,
  avgEngagement: a.avg_engagement,
  topTokens: a.top_tokens.map((token) => token.toUpperCase()),
});

const toTrendingToken = (t: z.infer<typeof trendingTokensPayload>['tokens'][number]): TrendingToken => ({
  token: t.symbol.toUpperCase(),
  name: t.name,
  mentions: t.mentions,
  smartMoneyMentions: t.smart_mentions,
  priceChange24h: t.price_change_24h,
});

const toTrendingCa = (c: z.infer<typeof trendingContractsPayload>['contracts'][number]): TrendingCa => ({
  address: c.address,
  chain: c.chain,
  mentions: c.mentions,
  smartMoneyMentions: c.smart_mentions,
  firstSeenAt: iso(c.first_seen_at),
});

export const toNewsItem = (p: z.infer<typeof postsPayload>['posts'][number]): NewsItem => ({
  id: p.id,
  text: p.text,
  author: p.author.username,
  authorFollowers: p.author.followers,
  publishedAt: iso(p.created_at),
  tokens: p.tokens.map((token) => token.toUpperCase()),
  engagementScore: p.engagement,
});

/** Where the index serves a list kind of shared/snapshot-kinds.ts, and its payload read as that kind's items. */
export interface WireList<Item> {
  path: string;
  items: z.ZodType<Item[]>;
}

/** One entry per list kind: the type requires it, and the index client (index-client.ts) derives its calls from it. */
export const WIRE_LISTS: { readonly [K in BaseListKind]: WireList<ListItem<K>> } = {
  trending: { path: 'v1/trending/tokens', items: trendingTokensPayload.transform((body) => body.tokens.map(toTrendingToken)) },
  'trending-cas': { path: 'v1/trending/contracts', items: trendingContractsPayload.transform((body) => body.contracts.map(toTrendingCa)) },
};
