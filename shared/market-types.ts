/** The public shapes of the market resources (service-interface.md part 2). */

export interface TrendingToken {
  token: string;
  name: string;
  mentions: number;
  smartMoneyMentions: number;
  priceChange24h: number;
}

export interface NewsItem {
  id: string;
  text: string;
  author: string;
  authorFollowers: number;
  publishedAt: string;
  tokens: string[];
  engagementScore: number;
}

export interface TrendingCa {
  address: string;
  chain: string;
  mentions: number;
  smartMoneyMentions: number;
  firstSeenAt: string;
}

export interface UsernameStats {
  username: string;
  indexScore: number;
  smartMoneyRank: number;
  totalPosts: number;
  avgEngagement: number;
  topTokens: string[];
  cachedAt: string;
}

export interface SentimentRecord {
  token: string;
  score: number;
  label: 'bullish' | 'bearish' | 'neutral';
  mentions: number;
  positive: number;
  neutral: number;
  negative: number;
  cachedAt: string;
}

/** What a shared snapshot holds in Redis. For `sentiment`, data maps the ticker to its record. */
export interface Snapshot<T> {
  data: T;
  cachedAt: string;
}
