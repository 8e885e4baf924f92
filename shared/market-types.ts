/**
 * The public shapes of the market resources (service-interface.md part 2), as zod schemas: the
 * worker builds snapshots of these types, the API serves them, and /openapi.json is generated
 * from the same schemas (apps/api/src/routes/docs/openapi.ts). A field added here appears in
 * the document; a field added to a body without being added here fails the type check.
 */
import { z } from 'zod';
import { AccountCallsSchema } from './callers/callers-schemas.js';

const timestamp = (description: string) => z.iso.datetime().meta({ description });
/** A number from `min` to `max`. */
export const within = (min: number, max: number, description: string) => z.number().min(min).max(max).meta({ description });
/** A figure that is null where the token was never listed. */
const listedOrNull = (description: string) => z.number().nullable().meta({ description });

export const TrendingTokenSchema = z
  .object({
    token: z.string().meta({ description: 'Token ticker symbol.' }),
    name: z.string().meta({
      description: "Full token name. With INDEX_PROVIDER=composite: CoinGecko's, or the ticker when CoinGecko does not resolve it.",
    }),
    mentions: z.number().meta({ description: 'Total social mentions in the window.' }),
    smartMoneyMentions: z.number().meta({
      description:
        'Mentions from smart money accounts. With INDEX_PROVIDER=composite: posts of the tracked accounts in the last 24 hours citing the token (docs/providers.md).',
    }),
    priceChange24h: z
      .number()
      .meta({ description: "24-hour price change, as a percentage. With INDEX_PROVIDER=composite: CoinGecko's, 0 when it has none." }),
  })
  .meta({ id: 'TrendingToken', description: 'A trending token.' });
export type TrendingToken = z.infer<typeof TrendingTokenSchema>;

export const NewsItemSchema = z
  .object({
    id: z.string().meta({ description: 'Unique post identifier.' }),
    text: z.string().meta({ description: 'Post content.' }),
    author: z.string().meta({ description: 'Social-network username of the author.' }),
    authorFollowers: z.number().meta({ description: 'Author follower count.' }),
    publishedAt: timestamp('ISO timestamp of publication.'),
    tokens: z.array(z.string()).meta({ description: 'Tokens mentioned in the post.' }),
    engagementScore: z.number().meta({
      description:
        'Engagement signal score from the index. With INDEX_PROVIDER=composite: likes + replies + bookmarks + 2 × (reposts + quotes) on X.',
    }),
  })
  .meta({ id: 'NewsItem', description: 'A post from a tracked account.' });
export type NewsItem = z.infer<typeof NewsItemSchema>;

export const TrendingCaSchema = z
  .object({
    address: z.string().meta({ description: 'Contract address.' }),
    chain: z.string().meta({ description: 'Chain identifier (for example ethereum, solana).' }),
    mentions: z.number().meta({ description: 'Total mentions in the current window.' }),
    smartMoneyMentions: z.number().meta({
      description:
        'Mentions from smart money accounts. With INDEX_PROVIDER=composite: posts of the tracked accounts in the last 24 hours containing the address.',
    }),
    firstSeenAt: timestamp(
      'ISO timestamp of when the address first appeared in the index. With INDEX_PROVIDER=composite: when this service first saw it (kept, never moved later).',
    ),
  })
  .meta({ id: 'TrendingCa', description: 'A trending contract address.' });
export type TrendingCa = z.infer<typeof TrendingCaSchema>;

export const UsernameStatsSchema = z
  .object({
    username: z.string().meta({ description: 'Social-network username, spelled as the index does.' }),
    indexScore: z.number().min(0).max(100).meta({
      description:
        'Influence score assigned by the index, range 0 to 100. With INDEX_PROVIDER=composite: weighted positions of influence inside the tracked set, engagement and reach over the tracked accounts (docs/providers.md, Stats).',
    }),
    smartMoneyRank: z.number().meta({ description: 'Rank within the smart money index.' }),
    totalPosts: z
      .number()
      .meta({ description: 'Total indexed posts. With INDEX_PROVIDER=composite: the posts held, those of the last 72 hours.' }),
    avgEngagement: z.number().meta({ description: 'Average engagement score per post.' }),
    topTokens: z.array(z.string()).meta({ description: 'Most mentioned token tickers.' }),
    cachedAt: timestamp('ISO timestamp of the last cache refresh.'),
    calls: AccountCallsSchema,
  })
  .meta({ id: 'UsernameStats', description: 'Influence statistics of a social-network username.' });
/** The stats as the worker stores them; the API adds `calls` as it answers (docs/decisions.md#callers). */
export type UsernameStats = Omit<z.infer<typeof UsernameStatsSchema>, 'calls'>;

const sentimentLabel = z
  .enum(['bullish', 'bearish', 'neutral'])
  .meta({ description: 'bullish when score >= 0.15, bearish when score <= -0.15, else neutral.' });
const classCount = (description: string) => z.int().min(0).meta({ description });

export const SentimentRecordSchema = z
  .object({
    token: z.string().meta({ description: 'The ticker as the index spells it (upper case).' }),
    score: within(-1, 1, 'Engagement-weighted mean polarity of the posts mentioning the token, in [-1, 1].'),
    label: sentimentLabel,
    mentions: classCount('Posts analysed.'),
    positive: classCount('Posts in the positive polarity class.'),
    neutral: classCount('Posts in the neutral polarity class.'),
    negative: classCount('Posts in the negative polarity class.'),
    sample: z
      .object({
        posts: classCount('Posts scored (the same as mentions).'),
        authors: classCount('Distinct authors of those posts: one account posting fifty times is one voice.'),
      })
      .meta({ description: 'What the record was computed from.' }),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .meta({
        description:
          "How far the sample supports the label, in [0, 1] (2 decimals): the share of authors whose own posts lean the label's way, " +
          'times authors / (authors + 10). One author: at most 0.09; 10 authors all agreeing: 0.5; 120 authors, 80 % agreeing: 0.74. ' +
          'See docs/decisions.md#d2.',
      }),
    cachedAt: timestamp('Refresh time of the snapshot it was computed from.'),
  })
  .meta({ id: 'SentimentRecord', description: 'Sentiment of one token.' });
export type SentimentRecord = z.infer<typeof SentimentRecordSchema>;

const cachedAt = timestamp('ISO timestamp of the last cache refresh.');

export const TrendingTokenListSchema = z
  .object({ data: z.array(TrendingTokenSchema), cachedAt })
  .meta({ id: 'TrendingTokenList', description: 'Trending tokens, ranked by smart money social activity.' });

export const TrendingCaListSchema = z
  .object({ data: z.array(TrendingCaSchema), cachedAt })
  .meta({ id: 'TrendingCaList', description: 'Trending contract addresses.' });

export const PaginationSchema = z
  .object({
    page: z.int().min(1).meta({ description: 'Effective page number.' }),
    limit: z.int().min(1).max(50).meta({ description: 'Effective limit (at most 50).' }),
    total: z.int().min(0).meta({ description: 'Total item count.' }),
  })
  .meta({ id: 'Pagination', description: 'Echo of the effective request values and the total item count.' });

export const NewsPageSchema = z
  .object({
    data: z.array(NewsItemSchema).max(50).meta({ description: 'Items of the requested page (at most the effective limit, 50).' }),
    pagination: PaginationSchema,
    cachedAt,
  })
  .meta({ id: 'NewsPage', description: 'One page of news.' });
export type NewsPage = z.infer<typeof NewsPageSchema>;

/** What a shared snapshot holds in Redis. For `sentiment`, data maps the ticker to its record. */
export interface Snapshot<T> {
  data: T;
  cachedAt: string;
}

const bucketAt = timestamp('The refresh time (interval 30m) or the start of the bucket (1h, 4h, 1d; aligned to UTC).');
const HistoryInterval = z.enum(['30m', '1h', '4h', '1d']).meta({ description: 'The interval asked for.' });

export const SentimentPointSchema = z
  .object({
    at: bucketAt,
    score: within(-1, 1, 'Mention-weighted mean score within the bucket, in [-1, 1].'),
    label: sentimentLabel,
    mentions: classCount('Posts analysed, summed over the bucket.'),
    positive: classCount('Positive posts, summed over the bucket.'),
    neutral: classCount('Neutral posts, summed over the bucket.'),
    negative: classCount('Negative posts, summed over the bucket.'),
  })
  .meta({ id: 'SentimentPoint', description: 'A token’s sentiment at one refresh, or summed over one bucket.' });
export type SentimentPoint = z.infer<typeof SentimentPointSchema>;

export const SentimentHistorySchema = z
  .object({
    token: z.string().max(20).meta({ description: 'The ticker asked for, upper case, without its $.' }),
    interval: HistoryInterval,
    points: z.array(SentimentPointSchema).max(1000).meta({ description: 'Oldest first; at most 1,000 (the newest).' }),
    cachedAt: timestamp('The latest refresh of sentiment.'),
  })
  .meta({ id: 'SentimentHistory', description: 'A token’s sentiment over time.' });

export const TrendingPointSchema = z
  .object({
    at: bucketAt,
    rank: z.int().min(1).nullable().meta({
      description: 'Position in the trending list (1 = first), the best in the bucket; null where the token was out of the list.',
    }),
    mentions: listedOrNull('Mentions, summed over the refreshes where the token was listed; null where it never was.'),
    smartMoneyMentions: listedOrNull('Smart money mentions, summed likewise; null where it was never listed.'),
    priceChange24h: listedOrNull('24-hour price change (%), the last in the bucket; null where it was never listed.'),
  })
  .meta({ id: 'TrendingPoint', description: 'A token’s trending figures at one refresh, or over one bucket.' });
export type TrendingPoint = z.infer<typeof TrendingPointSchema>;

export const TokenHistorySchema = z
  .object({
    token: z.string().max(20).meta({ description: 'The ticker, upper case.' }),
    interval: HistoryInterval,
    points: z
      .array(TrendingPointSchema)
      .max(1000)
      .meta({ description: 'Oldest first, one per refresh or bucket; at most 1,000 (the newest).' }),
    cachedAt: timestamp('The latest refresh of trending.'),
  })
  .meta({ id: 'TokenHistory', description: 'A token’s trending figures over time.' });

export const NewsEventSchema = z
  .object({
    data: z
      .array(NewsItemSchema)
      .meta({ description: 'Posts new since the previous refresh (none after the first refresh into an empty Redis).' }),
    cachedAt: timestamp('The refresh time; the event id is the same instant in ms.'),
  })
  .meta({ id: 'NewsEvent', description: 'The data of a `news` event of GET /api/market/stream.' });

export const SentimentEventSchema = z
  .object({
    data: z
      .array(SentimentRecordSchema)
      .meta({ description: 'Records that changed since the previous refresh, tokens newly mentioned included.' }),
    cachedAt: timestamp('The refresh time; the event id is the same instant in ms.'),
  })
  .meta({ id: 'SentimentEvent', description: 'The data of a `sentiment` event of GET /api/market/stream.' });
