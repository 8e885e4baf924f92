/**
 * The boundary the refresh and stats jobs call (docs/providers.md): our domain types only.
 * INDEX_PROVIDER chooses `index` (index-client.ts) or `composite` (composite.ts).
 */
import type { NewsItem, UsernameStats } from '../../../../shared/market-types.js';
import { listOf, type BaseListKind, type ListItem, type ListKind, type ListUpstream } from '../../../../shared/snapshot-kinds.js';
import type { ExtraWindow } from '../../../../shared/trending-windows.js';

/** The window of posts the news feed and the sentiment records are built from. */
export const NEWS_WINDOW_MS = 72 * 3600 * 1000;
/** Bounds memory and the API's page assembly whatever the upstream sends. */
export const NEWS_MAX_POSTS = 10_000;

/** One account's figures; the job adds cachedAt when it stores them. */
export type AccountStats = Omit<UsernameStats, 'cachedAt'>;

/**
 * One call per list kind of shared/snapshot-kinds.ts, named by its entry's `upstream`: the kind's
 * items, ranked, counted over `window` (the 24 hours without). The type requires every provider to have each.
 */
export type ListCalls = { [K in BaseListKind as ListUpstream<K>]: (window?: ExtraWindow) => Promise<ListItem<K>[]> };

export interface MarketProvider extends ListCalls {
  /** Posts published since `since`, newest first, at most `max`. */
  posts(since: Date, max: number): Promise<NewsItem[]>;
  /** One account's figures, or null when it is not in the index (`username` normalised: lower case, no `@`). */
  account(username: string): Promise<AccountStats | null>;
}

/** The call that fetches one list kind (the refresh job's). */
export function listCall<N extends ListKind>(provider: ListCalls, kind: N): () => Promise<ListItem<N>[]> {
  const { upstream, window } = listOf(kind);
  const call = provider[upstream] as (window?: ExtraWindow) => Promise<ListItem<N>[]>;
  return () => call.call(provider, window);
}
