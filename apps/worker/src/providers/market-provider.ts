/**
 * The boundary the refresh and stats jobs call (docs/providers.md): our domain types only. Two
 * implementations, chosen by INDEX_PROVIDER: `index` (../index-client.ts, the documented wire API
 * of docs/index-api.md, as served by the simulator) and `composite` (composite.ts: Elfa,
 * CoinGecko and X, with the rest computed by us).
 */
import type { NewsItem, TrendingCa, TrendingToken, UsernameStats } from '../../../../shared/market-types.js';

/** One account's figures; the job adds cachedAt when it stores them. */
export type AccountStats = Omit<UsernameStats, 'cachedAt'>;

export interface MarketProvider {
  /** Ranked by smart money social activity. */
  trendingTokens(): Promise<TrendingToken[]>;
  trendingContracts(): Promise<TrendingCa[]>;
  /** Posts published since `since`, newest first, at most `max`. */
  posts(since: Date, max: number): Promise<NewsItem[]>;
  /** One account's figures, or null when it is not in the index (`username` normalised: lower case, no `@`). */
  account(username: string): Promise<AccountStats | null>;
}
