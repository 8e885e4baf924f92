/**
 * Measuring a polarity scorer against labelled text: the human-rated tweets (Hutto & Gilbert
 * 2014, rating -4..+4) and our crypto sets (bullish / bearish / neutral). Pure: callers read
 * the files.
 */
import { polarityClass, type PolarityClass } from '../apps/worker/src/sentiment/score.js';

export interface RatedText {
  /** Human rating scaled to [-1, 1] (rating / 4 for the tweets). */
  rating: number;
  expected: PolarityClass;
  text: string;
  /** Who wrote it, where known (author-tagged posts, from `<file>.authors.txt`). */
  author?: string;
}

export interface Evaluation {
  count: number;
  /** confusion[expected][got]: how many texts of each expected class the scorer put in each class. */
  confusion: Record<PolarityClass, Record<PolarityClass, number>>;
  /** Share of texts the scorer called neutral. */
  neutralShare: number;
  /** Pearson correlation of scores with ratings; NaN when ratings are class labels only. */
  pearson: number;
  /** Share of texts whose scorer class equals the expected class. */
  accuracy: number;
  misses: Array<{ expected: PolarityClass; got: number; text: string }>;
}

/** Our generated sets say bullish / bearish / neutral; author-tagged posts say pos / neg. */
const LABEL_CLASS: Readonly<Record<string, PolarityClass>> = {
  bullish: 'positive',
  bearish: 'negative',
  neutral: 'neutral',
  pos: 'positive',
  neg: 'negative',
  positive: 'positive',
  negative: 'negative',
};

function dataLines(tsv: string): string[][] {
  return tsv
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.split('\t'));
}

/** `id \t rating \t text` lines; the human class uses the scorer's ±0.05 on rating / 4. */
export function parseRatedTweets(tsv: string): RatedText[] {
  return dataLines(tsv).map(([id, rating, ...text]) => {
    const scaled = Number(rating) / 4;
    if (!Number.isFinite(scaled)) throw new Error(`tweet ${id ?? '?'}: bad rating ${rating ?? ''}`);
    return { rating: scaled, expected: polarityClass(scaled), text: text.join('\t') };
  });
}

/** Whether a line is `label \t text` with one of the labels `parseLabelledPosts` reads. */
export function isLabelledLine(line: string): boolean {
  return LABEL_CLASS[line.split('\t', 1)[0] ?? ''] !== undefined;
}

/** `label \t text` lines, label one of bullish | bearish | neutral | pos | neg | positive | negative. */
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

export function evaluate(items: readonly RatedText[], score: (text: string) => number, withPearson = true): Evaluation {
  const scores = items.map((item) => score(item.text));
  const misses: Evaluation['misses'] = [];
  const row = (): Record<PolarityClass, number> => ({ negative: 0, neutral: 0, positive: 0 });
  const confusion = { negative: row(), neutral: row(), positive: row() };
  items.forEach((item, i) => {
    const got = scores[i] ?? 0;
    const kind = polarityClass(got);
    confusion[item.expected][kind] += 1;
    if (kind !== item.expected) misses.push({ expected: item.expected, got, text: item.text });
  });
  const neutral = confusion.negative.neutral + confusion.neutral.neutral + confusion.positive.neutral;
  return {
    count: items.length,
    confusion,
    neutralShare: items.length === 0 ? 0 : neutral / items.length,
    pearson: withPearson
      ? pearson(
          scores,
          items.map((item) => item.rating),
        )
      : Number.NaN,
    accuracy: items.length === 0 ? 0 : (items.length - misses.length) / items.length,
    misses,
  };
}
