/**
 * Per-token sentiment (docs/decisions.md#d2): the engagement-weighted mean polarity of the posts that mention a
 * token, with per-class counts. Each post is scored once, however many tokens it mentions.
 */
import type { SentimentRecord } from '../market-types.js';
import { labelFor } from './label.js';
import { polarityClass, scorePolarity } from './score.js';

export interface ScoredPost {
  text: string;
  /** Tickers the post mentions, any case, optional leading "$". */
  tokens: string[];
  /** The index's engagement figure; negative or non-finite values count as 0. */
  engagementScore: number;
}

/** The public record (token upper case without "$", score in [-1, 1] to 4 decimals) before its cachedAt. */
export type TokenSentiment = Omit<SentimentRecord, 'cachedAt'>;

export { BEARISH_AT, BULLISH_AT, labelFor } from './label.js';

/**
 * Weight of a post: 1 + ln(1 + engagement). Every post counts (weight 1 at engagement 0), more
 * engagement counts more, but logarithmically: a post with 10,000 interactions weighs ~10 quiet
 * posts, not 10,000, so one viral post cannot set a token's sentiment alone.
 */
export function engagementWeight(engagementScore: number): number {
  const engagement = Number.isFinite(engagementScore) && engagementScore > 0 ? engagementScore : 0;
  return 1 + Math.log1p(engagement);
}

interface Tally {
  weighted: number;
  weights: number;
  positive: number;
  neutral: number;
  negative: number;
}

/** Polarity of a post whose own tickers are `tickers` (upper case, no "$"). */
export type PostScorer = (text: string, tickers: ReadonlySet<string>) => number;

export const scorePost: PostScorer = (text, tickers) => scorePolarity(text, { tickers });

/**
 * `score` remembering its last `capacity` answers, least recently used out first. Scores are
 * deterministic, so this changes only cost: the worker re-reads a 72-hour window every 30
 * minutes, and almost every post in it was scored at the previous refresh.
 */
export function memoizedScorer(capacity: number, score: PostScorer = scorePost): PostScorer {
  const scores = new Map<string, number>();
  return (text, tickers) => {
    const key = `${[...tickers].sort().join(' ')}\n${text}`;
    const known = scores.get(key);
    if (known !== undefined) {
      scores.delete(key);
      scores.set(key, known);
      return known;
    }
    const fresh = score(text, tickers);
    scores.set(key, fresh);
    if (scores.size > capacity) scores.delete(scores.keys().next().value ?? key);
    return fresh;
  };
}

/** Keyed by upper-case token; tokens no post mentions are absent. */
export function summarizeSentiment(posts: readonly ScoredPost[], score: PostScorer = scorePost): Map<string, TokenSentiment> {
  const tallies = new Map<string, Tally>();
  for (const post of posts) {
    const tokens = new Set(post.tokens.map(normalizeToken).filter((token) => token !== ''));
    if (tokens.size === 0) continue;
    // The post's own tickers are neutral words here even when they are English ("$WIN", "SAFE").
    const polarity = score(post.text, tokens);
    const weight = engagementWeight(post.engagementScore);
    const polarityKind = polarityClass(polarity);
    for (const token of tokens) {
      let tally = tallies.get(token);
      if (tally === undefined) {
        tally = { weighted: 0, weights: 0, positive: 0, neutral: 0, negative: 0 };
        tallies.set(token, tally);
      }
      tally.weighted += weight * polarity;
      tally.weights += weight;
      tally[polarityKind] += 1;
    }
  }
  const summary = new Map<string, TokenSentiment>();
  for (const [token, tally] of tallies) {
    const score = round4(tally.weighted / tally.weights);
    summary.set(token, {
      token,
      score,
      label: labelFor(score),
      mentions: tally.positive + tally.neutral + tally.negative,
      positive: tally.positive,
      neutral: tally.neutral,
      negative: tally.negative,
    });
  }
  return summary;
}

function normalizeToken(token: string): string {
  return token.trim().replace(/^\$/, '').toUpperCase();
}

/** Rounds to 4 decimals and never yields -0. */
function round4(value: number): number {
  const rounded = Math.round(value * 10_000) / 10_000;
  return rounded === 0 ? 0 : rounded;
}
