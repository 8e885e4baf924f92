/**
 * Where the learned layer is unsure of a market post, the trader lexicon of Chen et al. (2019,
 * `trader-lexicon.ts`) has a say: a logistic combination of the scorer's own polarity and the
 * lexicon's mean lean, `z = scorer * s + lexicon * lean + bias` (lean 0 where it finds none of its
 * n-grams), bullish where z > 0. Three weights, fitted by `npm run sentiment:cv` on the scorer's
 * out-of-fold readings of the author-tagged posts (folds grouped by author), so they are
 * calibrated on posts the model never read; the annotated comments are not in the fit.
 *
 * It only decides where the model leaves room, because the lexicon has no neutral class and
 * does not know negation as the rules do: deciding every post (0.83 on the annotated comments in
 * cross-validation) turns thousands of the generated neutral and negated posts and general tweets
 * (docs/decisions.md#d2). So it decides:
 * - a side the scorer takes weakly (|s| < `weakSide`, 0.4), unless a market stance word in a post
 *   holding a negator set it ("no more dumping": the lexicon reads a negator one word deep);
 * - a post the model calls neutral without conviction (neutral probability < `tornNeutral`),
 *   where the lexicon leans clearly bearish (see `bearishLean`).
 */
import type { ClassProbabilities } from './market-model.js';

export interface LexiconBlend {
  readonly scorer: number;
  readonly lexicon: number;
  readonly bias: number;
  /** Below this |polarity| a side without a market stance word may be overturned. */
  readonly weakSide: number;
  /** Below this neutral probability a neutral reading may take the lexicon's side. */
  readonly tornNeutral: number;
  /**
   * A neutral reading takes a side only where the lean lies outside [bearishLean, bullishLean]: the
   * lexicon's leans come from posts two thirds bullish, so ordinary words lean bullish (the
   * generated neutral posts' median lean is 0.60) and only a lean outside their range says much.
   */
  readonly bearishLean: number;
  readonly bullishLean: number;
  /**
   * Which sides read from a market stance word are kept whatever the lexicon says: all of them, only
   * those in a post holding a negator (the lexicon reads a negator one word deep, so "no more
   * dumping" leans bearish to it; the rules read the negation's reach), or none.
   */
  readonly keepStanceWords: 'all' | 'negated' | 'none';
  /**
   * The three weights for text without a cashtag (people's comments rather than traders' tagged
   * calls), fitted on the annotated comments' out-of-fold readings; absent: the weights above.
   */
  readonly withoutCashtag?: Pick<LexiconBlend, 'scorer' | 'lexicon' | 'bias'>;
}

/** The market stance words a post holds: none, some, some in a post holding a negator. */
export type StanceWords = 'none' | 'plain' | 'negated';

/** Weights and gates from `npm run sentiment:cv -- <train> <dev> --annotated=<comments>` (docs/decisions.md#d2). */
export const LEXICON_BLEND: LexiconBlend = Object.freeze({
  scorer: 0.93,
  lexicon: 1.82,
  bias: -0.08,
  weakSide: 0.4,
  tornNeutral: 0.7,
  bearishLean: -0.2,
  bullishLean: Infinity,
  keepStanceWords: 'negated',
});

/** No gate: the combination decides every market post (measured, not shipped: see above). */
export const UNGATED: Pick<LexiconBlend, 'weakSide' | 'tornNeutral' | 'bearishLean' | 'bullishLean' | 'keepStanceWords'> = Object.freeze({
  weakSide: Infinity,
  tornNeutral: Infinity,
  bearishLean: Infinity,
  bullishLean: -Infinity,
  keepStanceWords: 'none',
});

/** The combination's logit: bullish where > 0 (`cashtag` false: the weights for text without one, where given). */
export function blendLogit(blend: LexiconBlend, polarity: number, lean: number | undefined, cashtag = true): number {
  const weights = cashtag ? blend : (blend.withoutCashtag ?? blend);
  return weights.scorer * polarity + weights.lexicon * (lean ?? 0) + weights.bias;
}

/**
 * `polarity` (the scorer's reading of a market post, from `probabilities`), kept or decided by the
 * combination as above. A decided post's strength is the combination's own margin, |2p - 1|.
 */
export function blendedPolarity(
  blend: LexiconBlend,
  polarity: number,
  probabilities: ClassProbabilities,
  lean: number | undefined,
  stanceWords: StanceWords,
  cashtag = true,
): number {
  const neutral = Math.abs(polarity) < 0.05;
  if (lean === undefined) return polarity;
  if (
    neutral
      ? probabilities[1] >= blend.tornNeutral || (lean > blend.bearishLean && lean < blend.bullishLean)
      : kept(blend, stanceWords) || Math.abs(polarity) >= blend.weakSide
  ) {
    return polarity;
  }
  const z = blendLogit(blend, polarity, lean, cashtag);
  if (!neutral && Math.sign(z) === Math.sign(polarity)) return polarity;
  const margin = Math.abs(2 / (1 + Math.exp(-z)) - 1);
  return Math.round((z > 0 ? 1 : -1) * Math.max(0.05, margin) * 1e4) / 1e4;
}

function kept(blend: LexiconBlend, stanceWords: StanceWords): boolean {
  if (blend.keepStanceWords === 'all') return stanceWords !== 'none';
  return blend.keepStanceWords === 'negated' && stanceWords === 'negated';
}
