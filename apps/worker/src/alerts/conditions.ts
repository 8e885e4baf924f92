/**
 * Whether a rule's condition became true between two refreshes, and on what. A rule fires on the
 * edge, so each compares the two; without a previous refresh nothing fires (nothing can be said to have changed).
 */
import type { AlertCondition, AlertMatch } from '../../../../shared/alerts/alert-types.js';
import type { AccountFigures } from '../../../../shared/callers/figures.js';
import type { CallRecord } from '../../../../shared/callers/records.js';
import type { NewsItem, SentimentRecord, TrendingCa, TrendingToken } from '../../../../shared/market-types.js';
import type { Story } from '../../../../shared/stories.js';

/** The mentions of each token at one past refresh: token -> [mentions, smartMoneyMentions]. */
export type MentionsAt = Readonly<Record<string, readonly [number, number]>>;

/** A call recorded since the last evaluation (docs/decisions.md#callers), with what the caller condition asks of it. */
export interface NewCall {
  call: CallRecord;
  /** Its account's figures over the 30 days before the refresh that recorded it: no look-ahead, the call itself not counted. */
  figures: AccountFigures;
  /** An address's chain as trending contract addresses list it (or `solana` for a base58 address); null for a ticker or an unknown one. */
  chain: string | null;
  /** Whether the token is in the first CALLS_TOP_N of the trending list (the address among trending contract addresses) now. */
  trending: boolean;
}

/** What one refresh gives the conditions; only the fields of its kind are set. */
export interface RefreshFacts {
  trending?: { previous: readonly TrendingToken[] | undefined; current: readonly TrendingToken[]; window: readonly MentionsAt[] };
  trendingCas?: { previous: readonly TrendingCa[] | undefined; current: readonly TrendingCa[] };
  news?: { previousIds: ReadonlySet<string> | undefined; current: readonly NewsItem[] };
  sentiment?: { previous: Readonly<Record<string, SentimentRecord>> | undefined; current: Readonly<Record<string, SentimentRecord>> };
  /** `previous`: each story the evaluations saw before, with the most authors it had then (undefined: none were recorded). */
  stories?: { previous: Readonly<Record<string, number>> | undefined; current: readonly Story[] };
  /** The calls recorded since the last evaluation; undefined when it recorded none to compare with. */
  calls?: readonly NewCall[];
}

/** How one condition type finds its matches in a refresh: every match, uncapped (the event is sent in parts). */
type ConditionMatcher<T extends AlertCondition['type']> = (
  condition: Extract<AlertCondition, { type: T }>,
  facts: RefreshFacts,
) => AlertMatch[];

/**
 * The conditions, one entry each: a new condition type is one entry here and one function below
 * (and its schema in shared/alerts/alert-types.ts).
 */
const CONDITIONS: { [T in AlertCondition['type']]: ConditionMatcher<T> } = {
  'sentiment-threshold': (condition, facts) => sentimentMatches(condition, facts.sentiment),
  'sentiment-label': (condition, facts) => sentimentMatches(condition, facts.sentiment),
  'mentions-spike': (condition, facts) => spikeMatches(condition, facts.trending),
  rank: (condition, facts) => rankMatches(condition, facts.trending),
  'new-contract': (condition, facts) => contractMatches(condition, facts.trendingCas),
  post: (condition, facts) => postMatches(condition, facts.news),
  story: (condition, facts) => storyMatches(condition, facts.stories),
  caller: (condition, facts) => callerMatches(condition, facts.calls),
};

export function matchesOf(condition: AlertCondition, facts: RefreshFacts): AlertMatch[] {
  return (CONDITIONS[condition.type] as ConditionMatcher<AlertCondition['type']>)(condition, facts);
}

function sentimentMatches(
  condition: Extract<AlertCondition, { type: 'sentiment-threshold' | 'sentiment-label' }>,
  sentiment: RefreshFacts['sentiment'],
): AlertMatch[] {
  const before = sentiment?.previous?.[condition.token];
  const now = sentiment?.current[condition.token];
  if (!before || !now) return [];
  const match = { token: condition.token, score: now.score, previousScore: before.score, label: now.label, previousLabel: before.label };
  if (condition.type === 'sentiment-threshold') {
    const crossed =
      condition.direction === 'up'
        ? before.score < condition.threshold && now.score >= condition.threshold
        : before.score > condition.threshold && now.score <= condition.threshold;
    return crossed ? [match] : [];
  }
  if (now.label === before.label) return [];
  return condition.to === 'any' || condition.to === now.label ? [match] : [];
}

/** True when `value` is at least `minCount` and `percent` % above the mean of the window's values. */
function spiking(value: number, past: readonly number[], percent: number, minCount: number): { mean: number } | undefined {
  if (value < minCount || past.length === 0) return undefined;
  const mean = past.reduce((sum, v) => sum + v, 0) / past.length;
  return value >= mean * (1 + percent / 100) && value > mean ? { mean } : undefined;
}

function spikeMatches(condition: Extract<AlertCondition, { type: 'mentions-spike' }>, trending: RefreshFacts['trending']): AlertMatch[] {
  if (!trending?.previous) return [];
  const column = condition.metric === 'mentions' ? 0 : 1;
  const tokens = condition.token === undefined ? trending.current : itemsOf(trending.current, condition.token);
  const matches: AlertMatch[] = [];
  for (const item of tokens) {
    const valueOf = (at: MentionsAt | undefined) => at?.[item.token]?.[column] ?? 0;
    const value = condition.metric === 'mentions' ? item.mentions : item.smartMoneyMentions;
    // Now against the previous `window` refreshes; the previous refresh against the ones before it.
    const now = spiking(value, trending.window.slice(0, condition.window).map(valueOf), condition.percent, condition.minCount);
    if (!now) continue;
    const before = spiking(
      valueOf(trending.window[0]),
      trending.window.slice(1, condition.window + 1).map(valueOf),
      condition.percent,
      condition.minCount,
    );
    if (before) continue;
    matches.push({ token: item.token, metric: condition.metric, value, mean: Math.round(now.mean * 100) / 100 });
  }
  return matches;
}

/** Each list's ranks, computed once per refresh for every rule that asks. */
const rankCache = new WeakMap<readonly TrendingToken[], ReadonlyMap<string, number>>();
function ranksOf(list: readonly TrendingToken[]): ReadonlyMap<string, number> {
  let ranks = rankCache.get(list);
  if (!ranks) {
    ranks = new Map(list.map((item, index) => [item.token, index + 1]));
    rankCache.set(list, ranks);
  }
  return ranks;
}

/** The list's item for `token`, as a list of none or one, looked up in the ranks computed once per list. */
function itemsOf(list: readonly TrendingToken[], token: string): readonly TrendingToken[] {
  const rank = ranksOf(list).get(token);
  return rank === undefined ? [] : [list[rank - 1]!];
}

function rankMatches(condition: Extract<AlertCondition, { type: 'rank' }>, trending: RefreshFacts['trending']): AlertMatch[] {
  if (!trending?.previous) return [];
  const previousRank = ranksOf(trending.previous);
  if (condition.token !== undefined) {
    // One token: its rank now and before, two lookups (100,000 rules each walking the top 100 cost most of an evaluation).
    const rank = ranksOf(trending.current).get(condition.token);
    const before = previousRank.get(condition.token);
    if (rank === undefined || rank > condition.top || (before !== undefined && before <= condition.top)) return [];
    return [{ token: condition.token, rank, previousRank: before ?? null }];
  }
  const matches: AlertMatch[] = [];
  for (const [index, item] of trending.current.slice(0, condition.top).entries()) {
    const before = previousRank.get(item.token);
    if (before !== undefined && before <= condition.top) continue;
    matches.push({ token: item.token, rank: index + 1, previousRank: before ?? null });
  }
  return matches;
}

function contractMatches(condition: Extract<AlertCondition, { type: 'new-contract' }>, cas: RefreshFacts['trendingCas']): AlertMatch[] {
  if (!cas?.previous) return [];
  const qualifies = (item: TrendingCa) =>
    (condition.chain === undefined || item.chain.toLowerCase() === condition.chain) &&
    item.smartMoneyMentions >= condition.minSmartMoneyMentions;
  const before = new Set(cas.previous.filter(qualifies).map((item) => `${item.chain}:${item.address}`));
  const matches: AlertMatch[] = [];
  for (const item of cas.current) {
    if (!qualifies(item) || before.has(`${item.chain}:${item.address}`)) continue;
    matches.push({ address: item.address, chain: item.chain, mentions: item.mentions, smartMoneyMentions: item.smartMoneyMentions });
  }
  return matches;
}

function postMatches(condition: Extract<AlertCondition, { type: 'post' }>, news: RefreshFacts['news']): AlertMatch[] {
  if (!news?.previousIds) return [];
  const matches: AlertMatch[] = [];
  for (const post of news.current) {
    if (news.previousIds.has(post.id)) continue;
    if (condition.account !== undefined && post.author.toLowerCase() !== condition.account) continue;
    if (condition.token !== undefined && !post.tokens.some((token) => token.toUpperCase() === condition.token)) continue;
    if (post.authorFollowers < condition.minFollowers || post.engagementScore < condition.minEngagement) continue;
    matches.push({
      postId: post.id,
      author: post.author,
      authorFollowers: post.authorFollowers,
      engagementScore: post.engagementScore,
      publishedAt: post.publishedAt,
      text: post.text.slice(0, 280),
    });
  }
  return matches;
}

/**
 * Stories with at least `minAuthors` authors that no evaluation saw with that many before: a new
 * story fires once, and one first seen with fewer fires at the refresh it reaches them.
 */
function storyMatches(condition: Extract<AlertCondition, { type: 'story' }>, stories: RefreshFacts['stories']): AlertMatch[] {
  if (!stories?.previous) return [];
  const matches: AlertMatch[] = [];
  for (const story of stories.current) {
    if (story.authors < condition.minAuthors || (stories.previous[story.id] ?? 0) >= condition.minAuthors) continue;
    if (condition.token !== undefined && !story.tokens.some((token) => token.toUpperCase() === condition.token)) continue;
    matches.push({
      storyId: story.id,
      title: story.title,
      tokens: story.tokens.join(','),
      authors: story.authors,
      firstPoster: story.firstPoster,
      firstSeenAt: story.firstSeenAt,
      path: `/api/market/stories/${encodeURIComponent(story.id)}`,
    });
  }
  return matches;
}

function callerMatches(condition: Extract<AlertCondition, { type: 'caller' }>, calls: RefreshFacts['calls']): AlertMatch[] {
  const matches: AlertMatch[] = [];
  for (const { call, figures, chain, trending } of calls ?? []) {
    if (figures.hitRate === null || figures.hitRate < condition.minHitRate || figures.calls < condition.minCalls) continue;
    if (condition.chain !== undefined && (call.subject !== 'ca' || chain !== condition.chain)) continue;
    if (condition.notTrending && trending) continue;
    matches.push({
      username: call.username,
      token: call.subject === 'token' ? call.id : null,
      address: call.subject === 'ca' ? call.id : null,
      chain,
      calledAt: new Date(call.callMs).toISOString(),
      postId: call.postId,
      text: call.text.slice(0, 280),
      calls: figures.calls,
      hits: figures.hits,
      hitRate: figures.hitRate,
      medianLeadMinutes: figures.medianLeadMinutes,
    });
  }
  return matches;
}
