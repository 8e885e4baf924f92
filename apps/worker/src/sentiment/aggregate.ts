/**
 * Per-token sentiment (docs/decisions.md#d2): the engagement-weighted mean polarity of the posts that mention a
 * token, with per-class counts. Each post is scored once, however many tokens it mentions.
 */
import type { SentimentRecord } from '../../../../shared/market-types.js';
import { labelFor } from '../../../../shared/sentiment-label.js';
import { polarityClass, scorePolarity } from './score.js';

export interface ScoredPost {
  text: string;
  /** Tickers the post mentions, any case, optional leading "$". */
  tokens: string[];
  /** The index's engagement figure; negative or non-finite values count as 0. */
  engagementScore: number;
  /** Who wrote it: the record counts distinct authors, and each author's posts vote once. */
  author: string;
}

/** The public record (token upper case without "$", score in [-1, 1] to 4 decimals) before its cachedAt. */
export type TokenSentiment = Omit<SentimentRecord, 'cachedAt'>;

export { BEARISH_AT, BULLISH_AT, labelFor } from '../../../../shared/sentiment-label.js';

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
  /** Per author, the sum and count of their posts' polarities (their vote: the mean's class, see `confidenceOf`). */
  authors: Map<string, { sum: number; posts: number }>;
}

/** Authors at which the sample's support reaches one half (see `confidenceOf`). */
export const HALF_SUPPORT_AUTHORS = 10;

/**
 * How far a sample supports its label (docs/decisions.md#d2), in [0, 1], 2 decimals: agreement times
 * support. Each author votes once, with the class of the mean of their own posts, so one account
 * posting fifty times is one voice. Agreement: for bullish or bearish, the share of authors voting
 * that way; for neutral, 1 - |bullish - bearish| / authors (a balanced or silent crowd supports it).
 * Support: authors / (authors + 10), so a single author can never make a record sure, whatever
 * they post. `authorPolarities`: each author's mean polarity.
 */
export function confidenceOf(label: TokenSentiment['label'], authorPolarities: Iterable<number>): number {
  let bullish = 0;
  let bearish = 0;
  let authors = 0;
  for (const polarity of authorPolarities) {
    authors += 1;
    const kind = polarityClass(polarity);
    if (kind === 'positive') bullish += 1;
    else if (kind === 'negative') bearish += 1;
  }
  if (authors === 0) return 0;
  const agreeing = label === 'bullish' ? bullish : label === 'bearish' ? bearish : authors - Math.abs(bullish - bearish);
  const support = authors / (authors + HALF_SUPPORT_AUTHORS);
  return Math.round((agreeing / authors) * support * 100) / 100;
}

/** A post's tickers as mentions: upper case, without `$`, each once. */
export function mentionedTokens(post: Pick<ScoredPost, 'tokens'>): string[] {
  return [...new Set(post.tokens.map((token) => token.trim().replace(/^\$/, '').toUpperCase()).filter((token) => token !== ''))];
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

/** A post's polarity as the sentiment records take it: its text scored with its mentions as its tickers. */
export function postPolarity(post: Pick<ScoredPost, 'text' | 'tokens'>, score: PostScorer = scorePost): number {
  return score(post.text, new Set(mentionedTokens(post)));
}

/**
 * Keyed by upper-case token; tokens no post mentions are absent. `scored`, when given, receives
 * each post's polarity as the records took it (`postPolarity`), for the steps after (the story
 * engine) to reuse; posts that mention no token are not scored.
 */
export function summarizeSentiment<Post extends ScoredPost>(
  posts: readonly Post[],
  score: PostScorer = scorePost,
  scored?: Map<Post, number>,
): Map<string, TokenSentiment> {
  const tallies = new Map<string, Tally>();
  for (const post of posts) {
    const tokens = new Set(mentionedTokens(post));
    if (tokens.size === 0) continue;
    // The post's own tickers are neutral words here even when they are English ("$WIN", "SAFE").
    const polarity = score(post.text, tokens);
    scored?.set(post, polarity);
    const weight = engagementWeight(post.engagementScore);
    const polarityKind = polarityClass(polarity);
    for (const token of tokens) {
      const tally: Tally = tallies.get(token) ?? { weighted: 0, weights: 0, positive: 0, neutral: 0, negative: 0, authors: new Map() };
      tallies.set(token, tally);
      tally.weighted += weight * polarity;
      tally.weights += weight;
      tally[polarityKind] += 1;
      const byAuthor = tally.authors.get(post.author) ?? { sum: 0, posts: 0 };
      tally.authors.set(post.author, { sum: byAuthor.sum + polarity, posts: byAuthor.posts + 1 });
    }
  }
  const summary = new Map<string, TokenSentiment>();
  for (const [token, tally] of tallies) {
    const score = round4(tally.weighted / tally.weights);
    const label = labelFor(score);
    const mentions = tally.positive + tally.neutral + tally.negative;
    summary.set(token, {
      token,
      score,
      label,
      mentions,
      positive: tally.positive,
      neutral: tally.neutral,
      negative: tally.negative,
      sample: { posts: mentions, authors: tally.authors.size },
      confidence: confidenceOf(
        label,
        [...tally.authors.values()].map(({ sum, posts }) => sum / posts),
      ),
    });
  }
  return summary;
}

/** Rounds to 4 decimals and never yields -0. */
function round4(value: number): number {
  const rounded = Math.round(value * 10_000) / 10_000;
  return rounded === 0 ? 0 : rounded;
}
