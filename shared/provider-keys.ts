/**
 * The Redis keys of INDEX_PROVIDER=composite (docs/providers.md): what the adapters remember
 * between refreshes and across restarts. Beside shared/keyspace.ts, under the same prefix.
 */
import { keyPrefix } from './keyspace.js';

const P = () => `${keyPrefix()}:provider`;

export type ProviderName = 'elfa' | 'coingecko' | 'x';

export const providerKeys = {
  /** Hash: provider -> JSON `{ until, reason, status }`, a provider not to be called before `until` (402, usage cap). */
  blocked: () => `${P()}:blocked`,
  /** Hash: `<chain>:<address>` -> ISO time the worker first saw the contract address (HSETNX: never moved). */
  caFirstSeen: () => `${P()}:ca-first-seen`,
  /** Hash: upper-case ticker -> the CoinGecko coin id chosen for it (the highest ranked when first met). */
  coingeckoIds: () => `${P()}:coingecko-ids`,
  /** Hash: lower-case username as configured -> JSON TrackedAccount (x-accounts.ts): id, X's spelling, followers, state, when last looked up. */
  xAccounts: () => `${P()}:x-accounts`,
  /** Hash: account state (active, renamed, suspended...) -> how many tracked accounts are in it: the /metrics gauge. */
  xAccountStates: () => `${P()}:x-account-states`,
  /** Hash: X user id -> JSON ReadState (x-batches.ts): the newest post read (`since_id`), a range left unread by the request budget. */
  xReads: () => `${P()}:x-reads`,
  /** Hash: post id -> JSON HeldPost (a NewsItem with its author's id): the tracked posts held, pruned to the news window. */
  xPosts: () => `${P()}:x-posts`,
  /** String: `post.fields` or `tweet.fields`, the fields parameter X accepted last (x-dialect.ts). */
  xFieldsDialect: () => `${P()}:x-fields-dialect`,
  /** Hash: lower-case username -> JSON `{ totalPosts, avgEngagement, fetchedAt }`, Elfa's count of the account's posts (keyword-mentions). */
  elfaAccountPosts: () => `${P()}:elfa-account-posts`,
  /** String: Elfa stats lookups (credits) spent on one UTC day (`YYYY-MM-DD`), against their daily budget. */
  elfaLookups: (day: string) => `${P()}:elfa-lookups:${day}`,
  /** Hash: `<provider> <path>` -> JSON `{ since, status }`, a route that answered 404/410: not called again before a recheck. */
  goneRoutes: () => `${P()}:gone-routes`,
} as const;

/** What a `blocked` entry holds. */
export interface ProviderBlock {
  /** ISO time of the provider's reset: no call before it. */
  until: string;
  /** Why, in words for /metrics and the log (never a key). */
  reason: string;
  status: number;
}
