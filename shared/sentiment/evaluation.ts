/**
 * Measuring a polarity scorer against labelled text: the human-rated tweets (Hutto & Gilbert
 * 2014, rating -4..+4) and our crypto sets (bullish / bearish / neutral). Pure: callers read
 * the files.
 */
import { polarityClass, type PolarityClass } from './score.js';

export interface RatedText {
  /** Human rating scaled to [-1, 1] (rating / 4 for the tweets). */
  rating: number;
  expected: PolarityClass;
  text: string;
}

export interface Evaluation {
  count: number;
  /** Pearson correlation of scores with ratings; NaN when ratings are class labels only. */
  pearson: number;
  /** Share of texts whose scorer class equals the expected class. */
  accuracy: number;
  misses: Array<{ expected: PolarityClass; got: number; text: string }>;
}

const LABEL_CLASS: Readonly<Record<string, PolarityClass>> = {
  bullish: 'positive', bearish: 'negative', neutral: 'neutral',
};

function dataLines(tsv: string): string[][] {
  return tsv.split('\n').filter((line) => line.trim() !== '').map((line) => line.split('\t'));
}

/** `id \t rating \t text` lines; the human class uses the scorer's ±0.05 on rating / 4. */
export function parseRatedTweets(tsv: string): RatedText[] {
  return dataLines(tsv).map(([id, rating, ...text]) => {
    const scaled = Number(rating) / 4;
    if (!Number.isFinite(scaled)) throw new Error(`tweet ${id ?? '?'}: bad rating ${rating ?? ''}`);
    return { rating: scaled, expected: polarityClass(scaled), text: text.join('\t') };
  });
}

/** `label \t text` lines, label one of bullish | bearish | neutral. */
export function parseLabelledPosts(tsv: string): RatedText[] {
  return dataLines(tsv).map(([label, ...text]) => {
    const expected = LABEL_CLASS[label ?? ''];
    if (expected === undefined) throw new Error(`unknown label: ${label ?? ''}`);
    const rating = expected === 'positive' ? 1 : expected === 'negative' ? -1 : 0;
    return { rating, expected, text: text.join('\t') };
  });
}

export function pearson(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  let sumX = 0;
  let sumY = 0;
  for (let i = 0; i < n; i++) {
    sumX += xs[i] ?? 0;
    sumY += ys[i] ?? 0;
  }
  const meanX = sumX / n;
  const meanY = sumY / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] ?? 0) - meanX;
    const dy = (ys[i] ?? 0) - meanY;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxy / Math.sqrt(sxx * syy);
}

export function evaluate(
  items: readonly RatedText[],
  score: (text: string) => number,
  withPearson = true,
): Evaluation {
  const scores = items.map((item) => score(item.text));
  const misses: Evaluation['misses'] = [];
  items.forEach((item, i) => {
    const got = scores[i] ?? 0;
    if (polarityClass(got) !== item.expected) misses.push({ expected: item.expected, got, text: item.text });
  });
  return {
    count: items.length,
    pearson: withPearson ? pearson(scores, items.map((item) => item.rating)) : Number.NaN,
    accuracy: items.length === 0 ? 0 : (items.length - misses.length) / items.length,
    misses,
  };
}
