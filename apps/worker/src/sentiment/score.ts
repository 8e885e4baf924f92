/**
 * Per-post polarity (docs/decisions.md#d2) in two layers. The rules: VADER from `vader-sentiment` with its lexicon
 * extended by crypto-market vocabulary, applied to the post after `normalizePost`. The learned
 * layer (`market-model.ts`): a classifier over the normalized post and the rules' reading, for
 * posts about the market. Deterministic: the merged lexicon and the weights are loaded once and
 * never mutated, the library's own state is never touched.
 */
import { CRYPTO_LEXICON, CRYPTO_NEUTRAL_WORDS, CRYPTO_STANCE_WORDS } from './tables/crypto-lexicon.js';
import { hasCashtag, hasMarketContext, hasMarketStance, isMarketPost, isMoneyTalk, marketStanceWords } from './market-context.js';
import modelFile from './market-model.json' with { type: 'json' };
import { fromModelFile, predictProbabilities, type ClassProbabilities, type MarketModel, type MarketModelFile } from './market-model.js';
import { blendedPolarity, LEXICON_BLEND, type LexiconBlend } from './lexicon-blend.js';
import { normalizeReadings } from './normalize.js';
import { lexiconLean } from './trader-lexicon.js';
import { compoundPolarity, type EngineRules } from './vader-engine.js';
import { loadVaderLexicon } from './vader-library.js';

export type PolarityClass = 'positive' | 'neutral' | 'negative';

/** VADER's own class boundary on the compound score. */
export const POLARITY_THRESHOLD = 0.05;

export interface ScoreOptions {
  /** Tickers (any case, optional "$") to treat as neutral when written in capitals. */
  tickers?: Iterable<string>;
  /** The lexicon combination for market posts (`lexicon-blend.ts`); false: the learned layer alone (for measuring). */
  blend?: LexiconBlend | false;
  /**
   * false: general text is VADER's alone, money talk included; 'main model': money talk read by the
   * main model alone, without the stance model (issue 50's round 2). For measuring: see `scorePolarityWith`.
   */
  moneyTalk?: boolean | 'main model';
}

function cryptoLexicon(): Map<string, number> {
  const lexicon = new Map([...loadVaderLexicon(), ...CRYPTO_LEXICON]);
  for (const word of CRYPTO_NEUTRAL_WORDS) lexicon.delete(word);
  return lexicon;
}

const CRYPTO_RULES: EngineRules = Object.freeze({
  lexicon: cryptoLexicon(),
  foldCase: true,
  // "Don't sell, not bearish": without clause scope the first clause's "don't" flips the
  // second clause's "not bearish" back to bearish. Measured: crypto-dev +1 post, tweets-dev
  // r 0.8831 -> 0.8828, accuracy unchanged.
  clauseScope: true,
  // "I can't see any reason to be bullish": six words reach from a clause's negator to the
  // stance word in most such posts. Measured: crypto-dev (200) 0.9350 -> 0.9450 with the
  // other rules off, tweets-dev unchanged (the general vocabulary keeps VADER's rule).
  wideNegation: { words: CRYPTO_STANCE_WORDS, span: 6 },
});
// Reference VADER's other addition, reading "no X" as a negation of X, was measured and left
// out for general words: tweets-dev r fell from 0.8831 to 0.8818 (crypto "no" mostly means
// absence: "no volume", "no bid", which the plain word -1.2 covers). For market words it is
// kept, within two words ("no rug", "no more dumping"), by `wideNegation`.

/** The committed weights of the learned layer (`npm run sentiment:train` rewrites them). */
export const MARKET_MODEL: MarketModel = fromModelFile(modelFile as MarketModelFile);

/** Polarity of one post in [-1, 1], 4 decimals: negative bearish, positive bullish. */
export function scorePolarity(text: string, options?: ScoreOptions): number {
  return scorePolarityWith(MARKET_MODEL, text, options);
}

/**
 * Three readings, by how much market context a text holds:
 * - a post about the market (a cashtag, ticker, crypto name or slang): the learned layer, and
 *   where it is unsure the trader lexicon with it (`lexicon-blend.ts`);
 * - general English (no market word, phrase or jargon after normalizing): VADER's rules with
 *   VADER's own lexicon, after the general part of `normalizePost` (questions asking for a pick,
 *   idioms), with negators read in any case ("Not a good day") as the reference Python VADER does;
 *   crypto-only rules stay out ("looks like" stays liking, "block" stays -1.0). Where VADER finds
 *   no side in text that talks money in everyday words ("just bought another", `isMoneyTalk`),
 *   the learned layer reads it: people discussing crypto take sides in words VADER has no
 *   polarity for, and the layer also knows neutral news (docs/decisions.md#d2);
 * - general text holding a market word or phrase ("she'll dump me", "time to get out"): the
 *   market reading (rules, averaged with the model when it holds a stance word) decides the class,
 *   but where it agrees with plain VADER, VADER's grade is kept: its intensities are calibrated on
 *   human ratings, and a market reading of everyday words should only move what it must.
 * Measured on tweets-dev against plain VADER in the same run: `npm run sentiment:eval`.
 */
export function scorePolarityWith(model: MarketModel, text: string, options?: ScoreOptions): number {
  const tickers =
    options?.tickers === undefined ? undefined : new Set([...options.tickers].map((ticker) => ticker.replace(/^\$/, '').toUpperCase()));
  const { market: normalized, general } = normalizeReadings(text, tickers);
  // The trader lexicon reads the raw post, tokenized as its authors did.
  const lean = (): number | undefined => (model.lexicon === undefined ? undefined : lexiconLean(model.lexicon, text));
  if (isMarketPost(text)) {
    const rules = rulePolarity(normalized);
    const traderLean = lean();
    const probabilities = predictProbabilities(model, normalized, rules, true, traderLean);
    const polarity = polarityOf(probabilities, rules);
    const blend = options?.blend ?? LEXICON_BLEND;
    return blend === false
      ? polarity
      : blendedPolarity(
          blend,
          polarity,
          probabilities,
          traderLean,
          marketStanceWords(normalized),
          // Only where text without a cashtag has weights of its own (measured, not shipped) is it looked for.
          blend.withoutCashtag === undefined || hasCashtag(text),
        );
  }
  if (!hasMarketContext(normalized)) {
    const polarity = generalPolarity(general);
    if (Math.abs(polarity) >= POLARITY_THRESHOLD || options?.moneyTalk === false || !isMoneyTalk(text)) return polarity;
    return modelPolarity(model, normalized, rulePolarity(normalized), options?.moneyTalk !== 'main model', lean());
  }
  const rules = rulePolarity(normalized);
  const market = hasMarketStance(normalized) ? round4((rules + modelPolarity(model, normalized, rules, false, lean())) / 2) : rules;
  const vader = plainVaderPolarity(text);
  return polarityClass(market) === polarityClass(vader) ? vader : market;
}

/** The learned layer's polarity for a normalized post the rules scored `rules` (`lean`: see `predictProbabilities`). */
export function modelPolarity(model: MarketModel, normalized: string, rules: number, withStance = true, lean?: number): number {
  return polarityOf(predictProbabilities(model, normalized, rules, withStance, lean), rules);
}

const VADER_LEXICON: ReadonlyMap<string, number> = loadVaderLexicon();
/**
 * General English: VADER's lexicon and rules, negators in any case. Measured on tweets-dev: folding
 * case r 0.8832 -> 0.8846, accuracy unchanged; clause scope (on for market text) would cost r
 * 0.8846 -> 0.8830 and one tweet's class, so it stays off.
 */
const GENERAL_RULES: EngineRules = Object.freeze({ lexicon: VADER_LEXICON, foldCase: true, clauseScope: false });
/** `vader-sentiment`'s own reading (the engine test checks it is identical). */
const PLAIN_VADER: EngineRules = Object.freeze({ lexicon: VADER_LEXICON, foldCase: false, clauseScope: false });

/** General English, normalized with `normalizePost(text, tickers, 'general')`. */
export function generalPolarity(normalized: string): number {
  return compoundPolarity(normalized, GENERAL_RULES);
}

/** Plain VADER (typographic apostrophes read as "'"). */
export function plainVaderPolarity(text: string): number {
  return compoundPolarity(text.replace(/[\u2018\u2019]/g, "'"), PLAIN_VADER);
}

/** The rules alone: VADER with the crypto lexicon, on a normalized post. */
export function rulePolarity(normalized: string): number {
  return compoundPolarity(normalized, CRYPTO_RULES);
}

/**
 * The winning class decides the sign; the strength is the mean of the model's margin (bullish minus
 * bearish probability) and the rules' strength, so intensifiers and capitals still grade it.
 * Neutral is 0.
 */
export function polarityOf([negative, neutral, positive]: ClassProbabilities, rules: number): number {
  if (neutral >= positive && neutral >= negative) return 0;
  const strength = (Math.abs(positive - negative) + Math.abs(rules)) / 2;
  return round4((positive > negative ? 1 : -1) * Math.max(POLARITY_THRESHOLD, strength));
}

function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}

/** positive >= 0.05, negative <= -0.05, else neutral (VADER's thresholds). */
export function polarityClass(score: number): PolarityClass {
  if (score >= POLARITY_THRESHOLD) return 'positive';
  if (score <= -POLARITY_THRESHOLD) return 'negative';
  return 'neutral';
}
