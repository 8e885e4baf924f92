/**
 * Whether a rule's condition became true between two refreshes, and on what. A rule fires on the
 * edge, so each compares the two; without a previous refresh nothing fires (nothing can be said to have changed).
 */
import type { AlertCondition, AlertMatch } from '../../../../shared/alerts/alert-types.js';
import type { NewsItem, SentimentRecord, TrendingCa, TrendingToken } from '../../../../shared/market-types.js';

/** The mentions of each token at one past refresh: token -> [mentions, smartMoneyMentions]. */
export type MentionsAt = Readonly<Record<string, readonly [number, number]>>;

/** What one refresh gives the conditions; only the fields of its kind are set. */
export interface RefreshFacts {
  trending?: { previous: readonly TrendingToken[] | undefined; current: readonly TrendingToken[]; window: readonly MentionsAt[] };
  trendingCas?: { previous: readonly TrendingCa[] | undefined; current: readonly TrendingCa[] };
  news?: { previousIds: ReadonlySet<string> | undefined; current: readonly NewsItem[] };
  sentiment?: { previous: Readonly<Record<string, SentimentRecord>> | undefined; current: Readonly<Record<string, SentimentRecord>> };
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
