/**
 * The learned layer for market posts: a three-class logistic regression (softmax) over the words,
 * word pairs and (optionally) the character n-grams of the normalized post's words. The normalizer has already done the domain work (tickers
 * out, idioms joined into tokens such as `notbearish`, emoji named), so the model only learns how
 * much each of those tokens, and each pair of them, says about a stance. Hand-written rules reach
 * about 0.85 on crypto authors they were not written from; weights learned from ~6,000 labelled
 * posts generalise further (see `dev/eval-sentiment.ts`).
 *
 * Only scoring lives here; training (`dev/market-model-training.ts`) is full-batch and visits
 * examples in file order, so the same data gives the same weights on every machine; the weights
 * are committed (`market-model.json`).
 */

import { hasMarketStance } from './market-context.js';
import { ASSET_NAMES, NEGATORS } from './tables/model-words.js';
import type { TraderLexicon } from './trader-lexicon.js';

/** Class order of every probability triple. */
export const MODEL_CLASSES = ['negative', 'neutral', 'positive'] as const;
export type ModelClass = (typeof MODEL_CLASSES)[number];
export type ClassProbabilities = readonly [negative: number, neutral: number, positive: number];

/** A labelled file the weights were trained on that is not in the repository. */
export interface TrainingSource {
  /** The file's name (no directory: where it lives differs between machines). */
  file: string;
  /** sha256 of the file's bytes. */
  sha256: string;
  examples: number;
  /** 'comments': comments people wrote, labelled by annotators; absent: posts tagged by their own authors. */
  kind?: 'comments';
}

/** The committed file: feature names and, for each, three weights in class order. */
export interface MarketModelFile {
  format: 1;
  /**
   * sha256 of the repository's own training posts as the normalizer and the rules read them, and
   * of the training options, so a test can tell when the weights are stale.
   */
  trainedOn: string;
  /** Training examples, all sources together. */
  examples: number;
  /** Author-tagged posts kept outside the repository (see dev/train-sentiment.ts). */
  sources?: TrainingSource[];
  features: string[];
  /** Length of the character n-grams among the features; absent: none. */
  charGrams?: number;
  /** Flat: weights[3 * i + c] is feature i's weight for class c. */
  weights: number[];
  /**
   * The trader lexicon (`trader-lexicon.ts`) whose lean the models read as the `#lex` feature,
   * shipped inside the weights, with the sha256 of the file it came from; absent: none.
   */
  lexicon?: { file: string; sha256: string; ngrams: string[]; leans: number[] };
  /** The stance model (see `MarketModel.stance`); absent: none. */
  stance?: { mix: number; charGrams?: number; gate?: number; generalGate?: number; features: string[]; weights: number[] };
}

export interface MarketModel {
  readonly weights: ReadonlyMap<string, readonly [number, number, number]>;
  /** The weights were learned with these features, so prediction must read posts the same way. */
  readonly charGrams: number;
  /**
   * A second model trained on the author-tagged posts (bullish or bearish, no neutral class; the
   * generated posts only regularise it), whose bullish-minus-bearish margin, times `mix` and times
   * a share, is added to this model's: where the post holds a market word, how torn this model is
   * between the two sides, elsewhere how far it takes a side at all. The tagged posts teach how real
   * traders write without outweighing the generated posts that teach neutral, negation and
   * intensity. It reads the same features, with its own character n-grams.
   */
  readonly stance?: StanceModel;
  /** The lexicon whose lean (`lexiconLean` of the raw post) is the `#lex` feature; absent: none. */
  readonly lexicon?: TraderLexicon;
}

export interface StanceModel {
  /** Per feature, its bullish weight minus its bearish weight. */
  readonly weights: ReadonlyMap<string, number>;
  readonly charGrams: number;
  readonly mix: number;
  /**
   * Where the post holds a market word (the crypto lexicon's) and the rules read it at least this
   * strongly (|compound|), the stance model may only push towards the rules' side: an explicit
   * stance word ("extremely bearish") is not overturned by what its letters or neighbours mean in
   * other traders' posts. 0: no gate.
   */
  readonly gate?: number;
  /**
   * The same where the post holds no market word, only general ones ("good luck", "love it"), which
   * traders use in mockery as often as not: only a reading this strong gates. 0: no gate.
   */
  readonly generalGate?: number;
}

// '#' never occurs in a word feature, so a post saying "bias" or "rule" cannot overwrite these.
const BIAS = '#bias';
const RULE = '#rule';
const RULE_POSITIVE = '#rule+';
const RULE_NEGATIVE = '#rule-';
/** The trader lexicon's mean lean of the post (`trader-lexicon.ts`), where it finds any of its n-grams. */
export const LEXICON_FEATURE = '#lex';
/** Few and dense: kept whatever their count, and left unpenalised so short posts keep the rules' say. */
export const DENSE_FEATURES: ReadonlySet<string> = new Set([BIAS, RULE, RULE_POSITIVE, RULE_NEGATIVE, LEXICON_FEATURE]);
const WORD = /emoji_\w+|[a-z0-9']+|[!?]/g;
/** How many words after a negator it reaches. */
const NEGATION_REACH = 3;

/** Changes when `modelFeatures` reads a post differently, so the committed weights go stale. */
export const FEATURES_VERSION = 4;

/**
 * Features of a normalized post, name -> value: the bias, its words and adjacent word pairs (1
 * each), with `charGrams` > 0 the character n-grams of each word bounded by `<` and `>`
 * (`c:<bul`, `c:bull`, ...; `n:` in a negation's reach), the words in a negation's reach marked as such (`neg:bearish` in
 * "not that bearish"), and the rules' reading of it (`rule` is their compound score in [-1, 1],
 * `rule+` and `rule-` their class). The rules carry what a few hundred posts cannot teach a model:
 * VADER's negation, intensifiers and the crypto lexicon, for short posts like "NOT bearish".
 * `lexiconLean`, where given, is the trader lexicon's reading of the raw post (`#lex`).
 */
export function modelFeatures(normalized: string, rulePolarity: number, charGrams = 0, lexiconLean?: number): Map<string, number> {
  const words = normalized.toLowerCase().match(WORD) ?? [];
  const features = new Map<string, number>([
    [BIAS, 1],
    [RULE, rulePolarity],
  ]);
  if (rulePolarity >= 0.05) features.set(RULE_POSITIVE, 1);
  if (rulePolarity <= -0.05) features.set(RULE_NEGATIVE, 1);
  if (lexiconLean !== undefined) features.set(LEXICON_FEATURE, lexiconLean);
  let negated = 0;
  words.forEach((word, i) => {
    if (!ASSET_NAMES.has(word)) {
      features.set(word, 1);
      // In a negation's reach the n-grams are negated too, or "not bullish" would read bullish by its letters.
      if (charGrams > 0) addCharGrams(features, negated > 0 ? 'n:' : 'c:', word, charGrams);
    }
    const next = words[i + 1];
    if (next !== undefined && !ASSET_NAMES.has(word) && !ASSET_NAMES.has(next)) features.set(`${word} ${next}`, 1);
    if (negated > 0) {
      features.set(`neg:${word}`, 1);
      negated--;
    }
    if (NEGATORS.has(word)) negated = NEGATION_REACH;
  });
  return features;
}

function addCharGrams(features: Map<string, number>, prefix: string, word: string, n: number): void {
  const bounded = `<${word}>`;
  for (let at = 0; at + n <= bounded.length; at++) features.set(`${prefix}${bounded.slice(at, at + n)}`, 1);
}

/** `lexiconLean`: `lexiconLean(model.lexicon, text)` of the raw post, where the model has a lexicon. */
export function predictProbabilities(
  model: MarketModel,
  normalized: string,
  rulePolarity: number,
  withStance = true,
  lexiconLean?: number,
): ClassProbabilities {
  let negative = 0;
  let neutral = 0;
  let positive = 0;
  const features = modelFeatures(normalized, rulePolarity, model.charGrams, lexiconLean);
  for (const [feature, value] of features) {
    const w = model.weights.get(feature);
    if (w === undefined) continue;
    negative += w[0] * value;
    neutral += w[1] * value;
    positive += w[2] * value;
  }
  const stance = withStance ? model.stance : undefined;
  if (stance === undefined || stance.mix === 0) return softmax([negative, neutral, positive]);
  let margin = stanceMargin(
    stance,
    stance.charGrams === model.charGrams ? features : modelFeatures(normalized, rulePolarity, stance.charGrams, lexiconLean),
  );
  const [pn, p0, pp] = softmax([negative, neutral, positive]);
  const stanceWord = hasMarketStance(normalized);
  // The gate: where the rules read a side confidently, that side is not overturned, only reinforced.
  const gate = (stanceWord ? stance.gate : stance.generalGate) ?? 0;
  if (gate > 0 && Math.abs(rulePolarity) >= gate && margin * rulePolarity < 0) margin = 0;
  // How far it counts. With a market word: as far as this model is torn between bullish and bearish
  // (2 x the smaller of the two), so where the generated posts settle a post (negation, intensity)
  // it stays out. Without one, the generated posts can tell news from a stance but not which side
  // traders' own idiom takes ("see you all at 100k"): it counts as far as the post takes one.
  const share = stanceWord ? 2 * Math.min(pn, pp) : (1 - p0) ** 2;
  negative -= (share * stance.mix * margin) / 2;
  positive += (share * stance.mix * margin) / 2;
  return softmax([negative, neutral, positive]);
}

/** The stance model's bullish-minus-bearish logit for a post's features. */
function stanceMargin(stance: StanceModel, features: ReadonlyMap<string, number>): number {
  let margin = 0;
  for (const [feature, value] of features) {
    const w = stance.weights.get(feature);
    if (w !== undefined) margin += w * value;
  }
  return margin;
}

export function softmax(z: readonly number[]): ClassProbabilities {
  const max = Math.max(...z);
  const e = z.map((value) => Math.exp(value - max));
  const sum = (e[0] ?? 0) + (e[1] ?? 0) + (e[2] ?? 0);
  return [(e[0] ?? 0) / sum, (e[1] ?? 0) / sum, (e[2] ?? 0) / sum];
}

export function fromModelFile(file: MarketModelFile): MarketModel {
  if (file.format !== 1 || file.weights.length !== 3 * file.features.length) {
    throw new Error('market model: malformed weights file');
  }
  const weights = new Map<string, readonly [number, number, number]>();
  file.features.forEach((feature, i) => {
    weights.set(feature, [file.weights[3 * i] ?? 0, file.weights[3 * i + 1] ?? 0, file.weights[3 * i + 2] ?? 0]);
  });
  const stance = file.stance;
  if (stance !== undefined && stance.weights.length !== stance.features.length) {
    throw new Error('market model: malformed stance weights');
  }
  const lexicon = file.lexicon;
  if (lexicon !== undefined && lexicon.leans.length !== lexicon.ngrams.length) {
    throw new Error('market model: malformed lexicon');
  }
  return {
    weights,
    charGrams: file.charGrams ?? 0,
    ...(lexicon === undefined ? {} : { lexicon: new Map(lexicon.ngrams.map((ngram, i) => [ngram, lexicon.leans[i] ?? 0])) }),
    ...(stance === undefined
      ? {}
      : {
          stance: {
            mix: stance.mix,
            charGrams: stance.charGrams ?? 0,
            ...(stance.gate === undefined ? {} : { gate: stance.gate }),
            ...(stance.generalGate === undefined ? {} : { generalGate: stance.generalGate }),
            weights: new Map(stance.features.map((feature, i) => [feature, stance.weights[i] ?? 0])),
          },
        }),
  };
}
