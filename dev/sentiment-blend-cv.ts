/**
 * `npm run sentiment:cv -- <train.tsv> <dev.tsv> --annotated=<comments.tsv>`: the lexicon
 * combination (`apps/worker/src/sentiment/lexicon-blend.ts`) and the money-talk path of `score.ts`
 * measured beside the scorer alone, plain VADER and the trader lexicon alone, in one run: on the
 * same author-grouped folds of the tagged posts, on the dev file's new authors, on the annotated
 * comments (with a bootstrap interval: 268 comments) and on the repository's sets (tweets-dev, the
 * generated posts' floor and the held-out sets', counts only).
 *
 * Training recipes (`RECIPES`; `--only=<name part>` picks some): without the comments (every
 * comment scored by a model that never read one), with them in the stance model, or in the main
 * model as well (as ordinary examples, or side given a side: committed), where each tenth of the
 * comments is scored by a model trained on the other nine tenths, and the folds and dev by models
 * trained with all of them. The combination's three weights are fitted on the scorer's
 * out-of-fold readings of the tagged posts: for fold f, on the other folds'; for dev, on the train
 * file's; for the comments and the committed weights, on all of them. One setting also gives text
 * without a cashtag weights of its own, fitted on the comments' out-of-fold readings (for a
 * comment, on the other tenths'). Each model is scored as the weights file holds it (4 decimals);
 * SENTIMENT_CV_CACHE=<dir> keeps the models there, named by their training options, so a rerun only scores.
 */
import { evaluate, type RatedText } from './sentiment-evaluation.js';
import {
  STANCE_DEFAULTS,
  TRAINING_DEFAULTS,
  toModelFile,
  trainMarketModel,
  trainStanceModel,
  type TrainingExample,
  type StanceOptions,
  type TrainingOptions,
} from './market-model-training.js';
import {
  COMMENTS_WEIGHT,
  commentTraining,
  committedTraderLexicon,
  type CommentsIn,
  cryptoSet,
  heldoutSets,
  taggedExamples,
  tweetsDev,
} from './sentiment-data.js';
import type { MarketModel } from '../apps/worker/src/sentiment/market-model.js';
import { LEXICON_BLEND, UNGATED, type LexiconBlend } from '../apps/worker/src/sentiment/lexicon-blend.js';
import { plainVaderPolarity, scorePolarityWith, type ScoreOptions } from '../apps/worker/src/sentiment/score.js';
import { lexiconLean } from '../apps/worker/src/sentiment/trader-lexicon.js';
import { isMarketPost } from '../apps/worker/src/sentiment/market-context.js';
import { fromModelFile, type MarketModelFile } from '../apps/worker/src/sentiment/market-model.js';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** The gates committed before issue 50's second round (measured beside the committed ones). */
const GATES_BEFORE: Partial<LexiconBlend> = { weakSide: 0.2, keepStanceWords: 'all' };

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

/**
 * The committed training: the repository's posts and the tagged ones, the stance model beside (with
 * the annotated comments, where given, and in the main model too as `commentsIn` says), the trader lexicon.
 */
function trainCommitted(
  repository: readonly TrainingExample[],
  tagged: readonly RatedText[],
  comments: readonly RatedText[],
  recipe: Recipe,
  settings: TrainingSettings,
): MarketModel {
  const examples = taggedExamples(tagged);
  const commented = commentTraining(comments, recipe.commentsIn ?? 'stance', recipe.weight ?? COMMENTS_WEIGHT);
  const mainTagged = recipe.taggedSidesOnly === true ? examples.map((example) => ({ ...example, sidesOnly: true })) : examples;
  const main = trainMarketModel([...repository, ...mainTagged, ...commented.main], settings.main);
  return {
    ...main,
    stance: trainStanceModel([...examples, ...commented.stance], [...repository], settings.stance),
    lexicon: committedTraderLexicon(),
  };
}

/** Both models' training options: the committed ones, with `--main-options=` / `--stance-options=` over them. */
interface TrainingSettings {
  main: TrainingOptions;
  stance: StanceOptions;
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
  return interval(posts.map((post) => accuracy([post], score)));
}

/** Mean of 0/1 rights with its bootstrap interval. */
function interval(right: readonly number[]): string {
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
  /** Only the recipes whose name holds one of these (`--only=`); absent: all. */
  only?: readonly string[];
  /** Training options over the committed ones (`--main-options=`, `--stance-options=`). */
  mainOptions?: Partial<TrainingOptions>;
  stanceOptions?: Partial<TrainingOptions>;
}

/**
 * The models one training recipe gives: for each fold, trained on the other folds; for dev, on the
 * train file; for each tenth of the comments, on everything else; and on everything (the committed
 * weights, for tweets-dev and the generated posts). Without the comments in training, every comment
 * is scored by the model trained on all the tagged posts, which never read one.
 */
interface Trained {
  folds: MarketModel[];
  dev: MarketModel;
  whole: MarketModel;
  commentModel: (i: number) => MarketModel;
}

const COMMENT_FOLDS = 10;

/** A training recipe: without the comments (`commentsIn` absent), or with them where `commentsIn` says, each weighing `weight`. */
interface Recipe {
  name: string;
  commentsIn?: CommentsIn;
  weight?: number;
  /** The tagged posts, too, side given a side in the main model. */
  taggedSidesOnly?: boolean;
}

const RECIPES: readonly Recipe[] = [
  { name: 'trained without the comments' },
  { name: 'comments in the stance model', commentsIn: 'stance' },
  { name: 'comments in both models', commentsIn: 'both' },
  { name: 'comments in both models, sides only in the main', commentsIn: 'both, sides only' },
  { name: 'comments x2 in both models, sides only in the main', commentsIn: 'both, sides only', weight: 2 },
  {
    name: 'comments in both models, tagged posts and comments sides only in the main',
    commentsIn: 'both, sides only',
    taggedSidesOnly: true,
  },
];

function trainRecipe({ foldPosts, train, annotated, repository, mainOptions, stanceOptions }: AnnotatedRun, recipe: Recipe): Trained {
  const comments = recipe.commentsIn === undefined ? [] : annotated;
  const settings: TrainingSettings = {
    main: { ...TRAINING_DEFAULTS, ...mainOptions },
    stance: { ...STANCE_DEFAULTS, options: { ...STANCE_DEFAULTS.options, ...stanceOptions } },
  };
  // The training options name the cached models, so a rerun with other options (or defaults) never scores a stale one.
  const variant = createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 12);
  let n = 0;
  const trainWith = (tagged: readonly RatedText[], withComments: readonly RatedText[]): MarketModel => {
    // Each model as the weights file holds it (rounded), so a cached model (SENTIMENT_CV_CACHE=<dir>) scores the same.
    const cache = process.env['SENTIMENT_CV_CACHE'];
    const path = `${cache ?? ''}/${recipe.name.replace(/\W+/g, '-')}-${variant}-${n++}.json`;
    const file =
      cache !== undefined && existsSync(path)
        ? (JSON.parse(readFileSync(path, 'utf8')) as MarketModelFile)
        : toModelFile(trainCommitted(repository, tagged, withComments, recipe, settings), '', 0);
    if (cache !== undefined && !existsSync(path)) writeFileSync(path, JSON.stringify(file));
    return { ...fromModelFile(file), lexicon: committedTraderLexicon() };
  };
  const whole = trainWith(foldPosts.flat(), comments);
  const byTenth =
    comments.length > 0
      ? Array.from({ length: COMMENT_FOLDS }, (_, f) =>
          trainWith(
            foldPosts.flat(),
            annotated.filter((_, i) => i % COMMENT_FOLDS !== f),
          ),
        )
      : [];
  return {
    folds: foldPosts.map((_, f) => trainWith(foldPosts.filter((__, g) => g !== f).flat(), comments)),
    dev: trainWith(train, comments),
    whole,
    commentModel: (i) => byTenth[i % COMMENT_FOLDS] ?? whole,
  };
}

interface Setting {
  name: string;
  blend: (weights: Weights) => LexiconBlend | false;
  moneyTalk: boolean | 'main model';
  /** Text without a cashtag has weights of its own, fitted on the comments' out-of-fold readings (`LexiconBlend.withoutCashtag`). */
  perSource?: boolean;
}

const gated = (gates: Partial<LexiconBlend>) => (weights: Weights) => ({ ...LEXICON_BLEND, ...gates, ...weights });
const SETTINGS: readonly Setting[] = [
  { name: 'scorer alone', blend: () => false, moneyTalk: false },
  { name: 'scorer + lexicon, every market post', blend: gated(UNGATED), moneyTalk: false },
  { name: 'scorer + lexicon, gated before', blend: gated(GATES_BEFORE), moneyTalk: false },
  { name: '+ money talk to the learned layer', blend: gated(GATES_BEFORE), moneyTalk: 'main model' },
  ...(
    [
      [0.4, 'none'],
      [0.4, 'negated'],
      [0.5, 'negated'],
    ] as const
  ).map(([weakSide, keepStanceWords]) => ({
    name:
      `+ weak side ${weakSide}, ${keepStanceWords === 'none' ? 'no' : 'negated'} stance words kept` +
      (weakSide === LEXICON_BLEND.weakSide && keepStanceWords === LEXICON_BLEND.keepStanceWords ? ' (committed in round 2)' : ''),
    blend: gated({ weakSide, keepStanceWords }),
    moneyTalk: 'main model' as const,
  })),
  {
    name: '+ weak side 0.4, own weights without a cashtag',
    blend: gated({ weakSide: 0.4, keepStanceWords: 'negated' }),
    moneyTalk: 'main model',
    perSource: true,
  },
  {
    name: '+ weak side 0.4, money talk read with the stance model (committed)',
    blend: gated({ weakSide: 0.4, keepStanceWords: 'negated' }),
    moneyTalk: true,
  },
];

export function reportAnnotated(run: AnnotatedRun): void {
  const { foldPosts, train, devNewAuthors, annotated } = run;
  const whole = (score: Score): string => {
    const generated = evaluate(cryptoSet('crypto-dev'), score, false);
    const held = heldoutSets().map((name) => evaluate(cryptoSet(name), score, false));
    const tweets = evaluate(tweetsDev(), score);
    return (
      `tweets-dev r ${tweets.pearson.toFixed(4)} acc ${tweets.accuracy.toFixed(4)}  generated right ${generated.count - generated.misses.length}` +
      ` (held-out ${held.map((h) => h.count - h.misses.length).join('/')})`
    );
  };
  const width = 44;
  console.log(`${annotated.length} annotated comments (${COMMENT_FOLDS}-fold where they are in training)`);
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
  const trainTexts = new Set(train.map((post) => post.text));
  for (const recipe of RECIPES.filter(({ name }) => run.only === undefined || run.only.some((part) => name.includes(part)))) {
    const withComments = recipe.commentsIn !== undefined;
    const trained = trainRecipe(run, recipe);
    const reading = (model: MarketModel, post: RatedText): Reading => ({
      polarity: scorePolarityWith(model, post.text, { blend: false }),
      lean: lexiconLean(committedTraderLexicon(), post.text),
      bullish: post.expected === 'positive',
    });
    const readings = foldPosts.map((posts, f) => posts.map((post) => reading(trained.folds[f] as MarketModel, post)));
    const fitted = fitBlend(readings.flat());
    const trainFit = fitBlend(foldPosts.flatMap((posts, f) => (readings[f] ?? []).filter((_, i) => trainTexts.has(posts[i]?.text ?? ''))));
    console.log(
      `${recipe.name}: blend weights on all out-of-fold readings ${JSON.stringify(fitted)}` +
        `, committed ${JSON.stringify({ scorer: LEXICON_BLEND.scorer, lexicon: LEXICON_BLEND.lexicon, bias: LEXICON_BLEND.bias })}`,
    );
    // The comments' own readings, each by a model that never read it; only market posts meet the combination.
    const commentReadings = annotated.map((post, i) => reading(trained.commentModel(i), post));
    const commentFit = (tenth?: number): Weights =>
      fitBlend(
        commentReadings.filter((_, i) => isMarketPost(annotated[i]?.text ?? '') && (tenth === undefined || i % COMMENT_FOLDS !== tenth)),
      );
    console.log(`  weights without a cashtag, fitted on the comments: ${JSON.stringify(commentFit())}`);
    for (const setting of withComments ? SETTINGS.filter((_, i) => i === 0 || i === 3 || i >= 5) : SETTINGS) {
      const options = (weights: Weights, tenth?: number): ScoreOptions => {
        const blend = setting.blend(weights);
        return {
          blend: blend !== false && setting.perSource === true ? { ...blend, withoutCashtag: commentFit(tenth) } : blend,
          moneyTalk: setting.moneyTalk,
        };
      };
      const folds = foldPosts.map((posts, f) => {
        const fold = options(fitBlend(readings.filter((_, g) => g !== f).flat()));
        return accuracy(posts, (text) => scorePolarityWith(trained.folds[f] as MarketModel, text, fold));
      });
      const devOptions = options(trainFit);
      const wholeOptions = options(fitted);
      const tenthOptions = Array.from({ length: COMMENT_FOLDS }, (_, f) => options(fitted, f));
      const devScore: Score = (text) => scorePolarityWith(trained.dev, text, devOptions);
      const wholeScore: Score = (text) => scorePolarityWith(trained.whole, text, wholeOptions);
      const commentRight = annotated.map((post, i) =>
        accuracy([post], (text) => scorePolarityWith(trained.commentModel(i), text, tenthOptions[i % COMMENT_FOLDS])),
      );
      console.log(
        `${`${withComments ? '  ' : ''}${setting.name}`.padEnd(width)} folds ${folds.map(f3).join(' ')} mean ${f3(mean(folds))}` +
          `  dev by new authors ${f3(accuracy(devNewAuthors, devScore))}  comments ${interval(commentRight)}  ${whole(wholeScore)}`,
      );
    }
  }
}

const mean = (xs: readonly number[]): number => xs.reduce((sum, x) => sum + x, 0) / xs.length;
