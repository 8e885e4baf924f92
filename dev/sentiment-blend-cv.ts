/**
 * `npm run sentiment:cv -- <train.tsv> <dev.tsv> --annotated=<comments.tsv>`: the lexicon
 * combination (`apps/worker/src/sentiment/lexicon-blend.ts`) measured beside the scorer alone,
 * plain VADER and the trader lexicon alone, on the same author-grouped folds of the tagged posts,
 * on the dev file's new authors, on the annotated comments (with a bootstrap interval: 268
 * comments) and on the repository's sets (tweets-dev, the generated posts' floor).
 *
 * The combination's three weights are fitted on the scorer's out-of-fold readings: for fold f, on
 * the other folds' posts as scored by models that never read them; for dev, on the train file's;
 * for the comments and the committed weights, on all of them. The comments are in no fit, except
 * in the rows marked "fitted with comments", a 10-fold cross-validation over the comments where the
 * other nine tenths join the fit, weighing as much as all the tagged posts.
 */
import { evaluate, type RatedText } from './sentiment-evaluation.js';
import { trainMarketModel, trainStanceModel, type TrainingExample } from './market-model-training.js';
import { committedTraderLexicon, cryptoSet, heldoutSets, taggedExamples, tweetsDev } from './sentiment-data.js';
import type { MarketModel } from '../apps/worker/src/sentiment/market-model.js';
import { LEXICON_BLEND, UNGATED, type LexiconBlend } from '../apps/worker/src/sentiment/lexicon-blend.js';
import { MARKET_MODEL, plainVaderPolarity, scorePolarityWith } from '../apps/worker/src/sentiment/score.js';
import { lexiconLean } from '../apps/worker/src/sentiment/trader-lexicon.js';

interface Reading {
  polarity: number;
  lean: number | undefined;
  bullish: boolean;
}
type Weights = Pick<LexiconBlend, 'scorer' | 'lexicon' | 'bias'>;
type Score = (text: string) => number;

/** Weighted logistic regression of bullish on (polarity, lean, 1) by Newton's method, a light L2 on the two slopes. */
export function fitBlend(readings: readonly Reading[], weightOf: (i: number) => number = () => 1, l2 = 1e-3): Weights {
  let beta = [0, 0, 0];
  for (let iteration = 0; iteration < 50; iteration++) {
    const gradient = [0, 0, 0];
    const hessian = [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ];
    let total = 0;
    readings.forEach((reading, i) => {
      const x = [reading.polarity, reading.lean ?? 0, 1];
      const p = 1 / (1 + Math.exp(-x.reduce((sum, xj, j) => sum + xj * (beta[j] ?? 0), 0)));
      const w = weightOf(i);
      total += w;
      for (let j = 0; j < 3; j++) {
        gradient[j] = (gradient[j] ?? 0) + w * (p - (reading.bullish ? 1 : 0)) * (x[j] ?? 0);
        for (let k = 0; k < 3; k++) (hessian[j] as number[])[k] = (hessian[j]?.[k] ?? 0) + w * p * (1 - p) * (x[j] ?? 0) * (x[k] ?? 0);
      }
    });
    for (let j = 0; j < 3; j++) {
      gradient[j] = (gradient[j] ?? 0) / total + (j < 2 ? l2 * (beta[j] ?? 0) : 0);
      for (let k = 0; k < 3; k++) (hessian[j] as number[])[k] = (hessian[j]?.[k] ?? 0) / total + (j === k && j < 2 ? l2 : 0);
    }
    const step = solve3(hessian, gradient);
    beta = beta.map((b, j) => b - (step[j] ?? 0));
    if (Math.max(...step.map(Math.abs)) < 1e-10) break;
  }
  const round = (x: number): number => Math.round(x * 100) / 100;
  return { scorer: round(beta[0] ?? 0), lexicon: round(beta[1] ?? 0), bias: round(beta[2] ?? 0) };
}

function solve3(a: number[][], b: number[]): number[] {
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let i = 0; i < 3; i++) {
    const pivot = m[i]?.[i] ?? 1;
    for (let r = 0; r < 3; r++) {
      if (r === i) continue;
      const factor = (m[r]?.[i] ?? 0) / pivot;
      for (let c = i; c < 4; c++) (m[r] as number[])[c] = (m[r]?.[c] ?? 0) - factor * (m[i]?.[c] ?? 0);
    }
  }
  return m.map((row, i) => (row[3] ?? 0) / (row[i] ?? 1));
}

/** The committed training: the repository's posts and the tagged ones, the stance model beside, the trader lexicon. */
function trainCommitted(repository: readonly TrainingExample[], tagged: readonly RatedText[]): MarketModel {
  const examples = taggedExamples(tagged);
  const main = trainMarketModel([...repository, ...examples]);
  return { ...main, stance: trainStanceModel(examples, [...repository]), lexicon: committedTraderLexicon() };
}

/** The README's quick measure of the lexicon alone: mean lean above 0.1 bullish, a post with none of its n-grams bullish. */
function lexiconAlone(text: string): number {
  const lean = lexiconLean(committedTraderLexicon(), text);
  // A side, never neutral: a lean within 0.05 of the boundary is still a side.
  return lean === undefined || lean > 0.1 ? 0.5 : -0.5;
}

const accuracy = (posts: readonly RatedText[], score: Score): number => evaluate(posts, score, false).accuracy;

/** 95 % percentile interval of accuracy over 2,000 resamples of the posts (a fixed generator: reruns agree). */
function bootstrap(posts: readonly RatedText[], score: Score): string {
  const right = posts.map((post) => (evaluate([post], score, false).accuracy === 1 ? 1 : 0));
  let seed = 12345;
  const next = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 2 ** 31) / 2 ** 31;
  const means: number[] = [];
  for (let b = 0; b < 2000; b++) {
    let sum = 0;
    for (let i = 0; i < right.length; i++) sum += right[Math.floor(next() * right.length)] ?? 0;
    means.push(sum / right.length);
  }
  means.sort((x, y) => x - y);
  const mean = right.reduce((s: number, x) => s + x, 0) / right.length;
  return `${f3(mean)} [${f3(means[49] ?? 0)}-${f3(means[1949] ?? 0)}]`;
}

const f3 = (x: number): string => x.toFixed(3);

export interface AnnotatedRun {
  foldPosts: ReadonlyArray<readonly RatedText[]>;
  train: readonly RatedText[];
  devNewAuthors: readonly RatedText[];
  annotated: readonly RatedText[];
  repository: readonly TrainingExample[];
}

export function reportAnnotated({ foldPosts, train, devNewAuthors, annotated, repository }: AnnotatedRun): void {
  const all = foldPosts.flat();
  const models = foldPosts.map((_, f) => trainCommitted(repository, foldPosts.filter((__, g) => g !== f).flat()));
  const reading = (model: MarketModel, post: RatedText): Reading => ({
    polarity: scorePolarityWith(model, post.text, { blend: false }),
    lean: lexiconLean(committedTraderLexicon(), post.text),
    bullish: post.expected === 'positive',
  });
  const readings = foldPosts.map((posts, f) => posts.map((post) => reading(models[f] as MarketModel, post)));
  const trainTexts = new Set(train.map((post) => post.text));
  const fitted = fitBlend(readings.flat());
  const trainFit = fitBlend(foldPosts.flatMap((posts, f) => (readings[f] ?? []).filter((_, i) => trainTexts.has(posts[i]?.text ?? ''))));
  const devModel = trainCommitted(repository, train);

  const settings: Array<{ name: string; blend: (weights: Weights) => LexiconBlend | false }> = [
    { name: 'scorer alone', blend: () => false },
    { name: 'scorer + lexicon, every market post', blend: (weights) => ({ ...LEXICON_BLEND, ...UNGATED, ...weights }) },
    { name: 'scorer + lexicon, gated (committed)', blend: (weights) => ({ ...LEXICON_BLEND, ...weights }) },
  ];
  const whole = (score: Score): string => {
    const generated = evaluate(cryptoSet('crypto-dev'), score, false);
    const held = heldoutSets().map((name) => evaluate(cryptoSet(name), score, false));
    const tweets = evaluate(tweetsDev(), score);
    return (
      `tweets-dev r ${tweets.pearson.toFixed(4)} acc ${tweets.accuracy.toFixed(4)}  generated right ${generated.count - generated.misses.length}` +
      ` (held-out ${held.map((h) => h.count - h.misses.length).join('/')})`
    );
  };
  console.log(
    `${annotated.length} annotated comments; blend weights on all out-of-fold readings ${JSON.stringify(fitted)}, committed ${JSON.stringify({ scorer: LEXICON_BLEND.scorer, lexicon: LEXICON_BLEND.lexicon, bias: LEXICON_BLEND.bias })}`,
  );
  const width = 38;
  const baselines: Array<[string, Score]> = [
    ['plain vader', plainVaderPolarity],
    ['lexicon alone (mean lean > 0.1)', lexiconAlone],
  ];
  for (const [name, score] of baselines) {
    const folds = foldPosts.map((posts) => accuracy(posts, score));
    console.log(
      `${name.padEnd(width)} folds ${folds.map(f3).join(' ')} mean ${f3(mean(folds))}  dev by new authors ${f3(accuracy(devNewAuthors, score))}` +
        `  comments ${bootstrap(annotated, score)}  ${whole(score)}`,
    );
  }
  for (const setting of settings) {
    const folds = foldPosts.map((posts, f) => {
      const weights = fitBlend(readings.filter((_, g) => g !== f).flat());
      const blend = setting.blend(weights);
      return accuracy(posts, (text) => scorePolarityWith(models[f] as MarketModel, text, { blend }));
    });
    const devScore: Score = (text) => scorePolarityWith(devModel, text, { blend: setting.blend(trainFit) });
    const committed: Score = (text) => scorePolarityWith(MARKET_MODEL, text, { blend: setting.blend(fitted) });
    console.log(
      `${setting.name.padEnd(width)} folds ${folds.map(f3).join(' ')} mean ${f3(mean(folds))}  dev by new authors ${f3(accuracy(devNewAuthors, devScore))}` +
        `  comments ${bootstrap(annotated, committed)}  ${whole(committed)}`,
    );
  }
  // The comments in the fit too: 10 folds over them, each fitted on all tagged readings and the other nine tenths.
  const annotatedReadings = annotated.map((post) => reading(MARKET_MODEL, post));
  for (const setting of settings.slice(1)) {
    let right = 0;
    for (let f = 0; f < 10; f++) {
      const rows = [...readings.flat(), ...annotatedReadings.filter((_, i) => i % 10 !== f)];
      const weights = fitBlend(rows, (i) => (i < all.length ? 1 : all.length / (annotated.length * 0.9)));
      const blend = setting.blend(weights);
      const posts = annotated.filter((_, i) => i % 10 === f);
      right += accuracy(posts, (text) => scorePolarityWith(MARKET_MODEL, text, { blend })) * posts.length;
    }
    console.log(`${`${setting.name}, fitted with comments`.padEnd(width)} comments (10-fold) ${f3(right / annotated.length)}`);
  }
}

const mean = (xs: readonly number[]): number => xs.reduce((sum, x) => sum + x, 0) / xs.length;
