/**
 * The stats of a tracked account with INDEX_PROVIDER=composite, over the whole tracked set
 * (docs/providers.md, "Stats": the figures, their weights and why). Pure, so the X side may change
 * how posts are read. A figure we cannot compute is null, never a zero: the caller then stores no
 * record rather than a confident 0 (the retired smart-stats route made every account 100 and rank 1).
 */
import type { HeldPost } from './x.js';

export interface SetAccount {
  /** Its lower-case username. */
  key: string;
  /** X's follower count; null when unknown (never resolved, suspended, no post read). */
  followers: number | null;
  /** Whether the account's posts of the window were read: no post is then a true zero, not an unknown. */
  postsRead: boolean;
  /** Its posts' figures from elsewhere (Elfa), used only when none of its posts is held. */
  external?: { totalPosts: number; avgEngagement: number | null } | undefined;
}

export interface SetPost {
  /** The key of the tracked account that wrote it. */
  authorKey: string;
  engagement: number;
  tokens: readonly string[];
  /** Keys of the tracked accounts it mentions (other than the one it replies to). */
  mentions: readonly string[];
  /** The key of the tracked account it replies to. */
  repliesTo?: string | undefined;
  /** The key of the tracked account whose post it quotes. */
  quotes?: string | undefined;
}

export interface AccountFigures {
  totalPosts: number | null;
  /** Mean engagementScore of its posts in the window (0 when it posted none, read). */
  avgEngagement: number | null;
  reach: number | null;
  /** How much the other tracked accounts refer to it (below). */
  influence: number | null;
  /** 0-100. */
  indexScore: number | null;
  /** 1..n, distinct for distinct accounts, among the accounts with an indexScore (those whose engagement is known). */
  smartMoneyRank: number | null;
  topTokens: string[];
}

/** What one reference from another tracked account is worth. */
export const REFERENCE_WEIGHTS = { mention: 1, reply: 2, quote: 3 } as const;
export const SCORE_WEIGHTS = { influence: 0.4, engagement: 0.35, reach: 0.25 } as const;
type Figure = keyof typeof SCORE_WEIGHTS;

/** Influence of `a`: the sum over the other tracked accounts `b` of log2(1 + b's weighted references to a). */
function influences(accounts: readonly SetAccount[], posts: readonly SetPost[]): Map<string, number | null> {
  const anyRead = accounts.some((account) => account.postsRead);
  const weights = new Map<string, Map<string, number>>();
  const add = (from: string, to: string | undefined, weight: number) => {
    if (to === undefined || to === from) return;
    const byReferrer = weights.get(to) ?? new Map<string, number>();
    byReferrer.set(from, (byReferrer.get(from) ?? 0) + weight);
    weights.set(to, byReferrer);
  };
  for (const post of posts) {
    for (const mention of new Set(post.mentions)) add(post.authorKey, mention, REFERENCE_WEIGHTS.mention);
    add(post.authorKey, post.repliesTo, REFERENCE_WEIGHTS.reply);
    add(post.authorKey, post.quotes, REFERENCE_WEIGHTS.quote);
  }
  const result = new Map<string, number | null>();
  for (const { key } of accounts) {
    // Nobody's posts were read: nothing says whether anyone refers to it.
    if (!anyRead) {
      result.set(key, null);
      continue;
    }
    let sum = 0;
    for (const weight of weights.get(key)?.values() ?? []) sum += Math.log2(1 + weight);
    result.set(key, Math.round(sum * 1000) / 1000);
  }
  return result;
}

/** Where `value` stands among `sorted` (ascending), 0 (lowest) to 1 (highest), ties at their mean position, a lone account 0.5. */
function position(value: number, sorted: readonly number[]): number {
  if (sorted.length <= 1) return 0.5;
  const below = firstAtLeast(sorted, value);
  const equal = firstAtLeast(sorted, value, true) - below;
  return (below + (equal - 1) / 2) / (sorted.length - 1);
}

/** The index of the first entry >= value (> value when `after`), by bisection: a set of 1,000 is ranked per lookup. */
function firstAtLeast(sorted: readonly number[], value: number, after = false): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value || (after && sorted[middle] === value)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The five tokens the posts mention most, most first (ties alphabetical). */
export function topTokens(posts: readonly { tokens: readonly string[] }[]): string[] {
  const counts = new Map<string, number>();
  for (const post of posts) for (const token of post.tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 5)
    .map(([token]) => token);
}

/** Every tracked account's figures (docs/providers.md, "Stats"). */
export function smartSetStats(accounts: readonly SetAccount[], posts: readonly SetPost[]): Map<string, AccountFigures> {
  const byAuthor = new Map<string, SetPost[]>(accounts.map((account) => [account.key, []]));
  for (const post of posts) byAuthor.get(post.authorKey)?.push(post);
  const influence = influences(accounts, [...byAuthor.values()].flat());
  const figures = new Map<string, AccountFigures>();
  for (const account of accounts) {
    const mine = byAuthor.get(account.key) ?? [];
    let totalPosts: number | null = null;
    let avgEngagement: number | null = null;
    if (mine.length > 0) {
      totalPosts = mine.length;
      avgEngagement = Math.round((mine.reduce((sum, post) => sum + post.engagement, 0) / mine.length) * 10) / 10;
    } else if (account.external) {
      totalPosts = account.external.totalPosts;
      avgEngagement = account.external.avgEngagement;
    } else if (account.postsRead) {
      // Read, and it posted nothing in the window: a true zero.
      totalPosts = 0;
      avgEngagement = 0;
    }
    figures.set(account.key, {
      totalPosts,
      avgEngagement,
      reach: account.followers,
      influence: influence.get(account.key) ?? null,
      indexScore: null,
      smartMoneyRank: null,
      topTokens: topTokens(mine),
    });
  }

  // Scored: the accounts whose engagement is known (their record needs it); the others are not ranked yet.
  const scored = [...figures.values()].filter((entry) => entry.avgEngagement !== null);
  const valuesOf = (figure: Figure) =>
    scored
      .map((entry) => valueOf(entry, figure))
      .filter((value): value is number => value !== null)
      .sort((a, b) => a - b);
  const known = { influence: valuesOf('influence'), engagement: valuesOf('engagement'), reach: valuesOf('reach') };
  for (const entry of scored) {
    let weighted = 0;
    let weights = 0;
    for (const figure of Object.keys(SCORE_WEIGHTS) as Figure[]) {
      const value = valueOf(entry, figure);
      if (value === null) continue;
      weighted += SCORE_WEIGHTS[figure] * position(value, known[figure]);
      weights += SCORE_WEIGHTS[figure];
    }
    // The weights of unknown figures are left out, not counted as zeros.
    entry.indexScore = Math.round((weighted / weights) * 1000) / 10;
  }

  const ranked = [...figures.entries()]
    .filter(([, entry]) => entry.indexScore !== null)
    .sort(([aKey, a], [bKey, b]) => compare(a, b) || aKey.localeCompare(bKey));
  ranked.forEach(([, entry], at) => (entry.smartMoneyRank = at + 1));
  return figures;
}

function valueOf(entry: AccountFigures, figure: Figure): number | null {
  return figure === 'engagement' ? entry.avgEngagement : entry[figure];
}

/** Higher indexScore first; ties broken by influence, engagement, reach (unknown last), so ranks are distinct. */
function compare(a: AccountFigures, b: AccountFigures): number {
  const byScore = (b.indexScore ?? 0) - (a.indexScore ?? 0);
  if (byScore !== 0) return byScore;
  for (const figure of ['influence', 'engagement', 'reach'] as const) {
    const [x, y] = [valueOf(a, figure) ?? -1, valueOf(b, figure) ?? -1];
    if (x !== y) return y - x;
  }
  return 0;
}

const HANDLE = /(?<![A-Za-z0-9_])@([A-Za-z0-9_]{1,15})(?![A-Za-z0-9_])/g;
const LEADING_HANDLES = /^(?:\s*@[A-Za-z0-9_]{1,15}(?![A-Za-z0-9_]))+/;
const QUOTED_LINK = /(?:x|twitter)\.com\/([A-Za-z0-9_]{1,15})\/status\/\d+/i;

/** Tracked accounts' keys by X user id and by any spelling (configured or X's); undefined: not tracked. */
export interface SetLookup {
  byId(id: string): string | undefined;
  byName(username: string): string | undefined;
}

/**
 * The held posts as the set's posts, references from X's fields when the post carries them, else
 * from its text (docs/providers.md, "Stats"). A post by an untracked author is left out.
 */
export function setPostsFromHeld(posts: readonly HeldPost[], lookup: SetLookup): SetPost[] {
  const authorOf = new Map(posts.map((post) => [post.id, authorKeyOf(post, lookup)]));
  const result: SetPost[] = [];
  for (const post of posts) {
    const authorKey = authorOf.get(post.id);
    if (authorKey === undefined) continue;
    const leading = LEADING_HANDLES.exec(post.text)?.[0] ?? '';
    const repliedHandle = leading ? [...leading.matchAll(HANDLE)][0]?.[1] : undefined;
    const repliesTo =
      post.inReplyToUserId !== undefined
        ? lookup.byId(post.inReplyToUserId)
        : repliedHandle === undefined
          ? undefined
          : lookup.byName(repliedHandle);
    const handles = post.mentions ?? [...post.text.matchAll(HANDLE)].map((match) => match[1] ?? '');
    const mentions = handles.map((handle) => lookup.byName(handle)).filter((key): key is string => key !== undefined && key !== repliesTo);
    const quotedHandle = QUOTED_LINK.exec(post.text)?.[1];
    const quotedHeld = post.quotes?.map((id) => authorOf.get(id)).find((key) => key !== undefined);
    result.push({
      authorKey,
      engagement: post.engagementScore,
      tokens: post.tokens,
      mentions,
      repliesTo,
      quotes: quotedHeld ?? (quotedHandle === undefined ? undefined : lookup.byName(quotedHandle)),
    });
  }
  return result;
}

function authorKeyOf(post: HeldPost, lookup: SetLookup): string | undefined {
  return (post.authorId !== undefined ? lookup.byId(post.authorId) : undefined) ?? lookup.byName(post.author);
}
