// The simulated index: what the /v1 routes serve from the accounts and the post stream, as pure
// functions of (seed, postCount, simulated now). The server owns the clock and passes `now` in,
// so this module has no state beyond caches of deterministic values. (Contracts depend on the
// seed and the clock alone: the route reads contract-trends.ts directly.)

import { ACCOUNT_COUNT, type Account, SMART_RANK_CUTOFF, generateAccounts } from './accounts.js';
import { PostStream, type WirePost, encodeCursor } from './posts.js';
import { type WireTrendingToken, trendingTokens } from './token-trends.js';
import { DAY_MS } from '../../../shared/durations.js';

export interface WireAccount {
  readonly username: string;
  readonly score: number;
  readonly smart_rank: number;
  readonly posts_count: number;
  readonly avg_engagement: number;
  readonly top_tokens: readonly string[];
}

export interface PostsPageQuery {
  /** Keep posts created at or after this instant (ms). */
  readonly since?: number | undefined;
  readonly limit: number;
  /** Slot to continue from, decoded from the previous page's cursor. */
  readonly cursorSlot?: number | undefined;
}

export interface PostsPage {
  readonly posts: readonly WirePost[];
  readonly next_cursor: string | null;
}

export class World {
  readonly accounts: readonly Account[];
  private readonly byLowerName: ReadonlyMap<string, Account>;
  private readonly stream: PostStream;

  constructor(
    readonly seed: number,
    readonly postCount: number,
  ) {
    if (!Number.isSafeInteger(seed)) throw new RangeError('seed must be an integer');
    if (!Number.isInteger(postCount) || postCount < 1 || postCount > 1_000_000)
      throw new RangeError('postCount must be an integer from 1 to 1,000,000');
    this.accounts = generateAccounts(seed);
    this.byLowerName = new Map(this.accounts.map((a) => [a.username.toLowerCase(), a]));
    this.stream = new PostStream(seed, postCount, SMART_RANK_CUTOFF, this.accounts);
    if (this.accounts.length !== ACCOUNT_COUNT) throw new Error('account generation is broken');
  }

  /** Case-insensitive, ignoring one leading '@'. */
  findAccount(username: string): WireAccount | undefined {
    const account = this.byLowerName.get(username.replace(/^@/, '').toLowerCase());
    if (!account) return undefined;
    return {
      username: account.username,
      score: account.score,
      smart_rank: account.smartRank,
      posts_count: account.postsCount,
      avg_engagement: account.avgEngagement,
      top_tokens: account.topTokens,
    };
  }

  postsPage(now: number, query: PostsPageQuery): PostsPage {
    this.stream.prune(now);
    const lowest = Math.max(this.stream.oldestSlot(now), query.since === undefined ? -Infinity : this.stream.firstSlotFrom(query.since));
    const start = Math.min(this.stream.newestSlot(now), query.cursorSlot ?? Infinity);
    const posts: WirePost[] = [];
    let slot = start;
    for (; slot >= lowest && posts.length < query.limit; slot--) posts.push(this.stream.post(slot).wire);
    return { posts, next_cursor: slot >= lowest ? encodeCursor(slot) : null };
  }

  trendingTokens(now: number, limit: number, windowMs = DAY_MS): WireTrendingToken[] {
    this.stream.prune(now);
    return trendingTokens(this.seed, this.stream, this.postCount, now, windowMs).slice(0, limit);
  }
}
