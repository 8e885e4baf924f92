/**
 * VADER's per-text loop with a caller-supplied lexicon. Only the parts of the library that
 * read its private lexicon are re-stated here (tokenising, caps, boosters, word valence); the
 * rules themselves are the library's own methods. With the library lexicon, `foldCase` and
 * `clauseScope` off, this reproduces `polarity_scores().compound` exactly (see the engine test).
 */
import { DECREASERS, INCREASERS, NEGATE, PUNC_MARKS } from './tables/vader-words.js';
import { vaderAnalyzer as vader } from './vader-library.js';

export interface EngineRules {
  /** word (lower case) -> valence in [-4, 4]. */
  lexicon: ReadonlyMap<string, number>;
  /**
   * Apply negation, "but" and idiom rules to lower-cased words, as the reference Python VADER
   * does; the JS port compares raw words, so "NOT bearish" or "But ..." escape the rules.
   */
  foldCase: boolean;
  /**
   * Negation, boosters and idioms look back at most to the last clause break (a word ending in
   * , . ; : ! ?); VADER looks back three words regardless, across sentence ends.
   */
  clauseScope: boolean;
  /**
   * Words whose negation is read more widely than VADER's three-word window: a negator up to
   * `span` words back in the same clause (or "no" up to two) flips them once. Crypto posts negate
   * their stance words from further away ("I don't think it will ever moon", "no reason to be
   * bullish") and before "this" ("not buying this pump"), where VADER's "never this" emphasis
   * rule would amplify instead of negate. Absent: VADER's rule for every word.
   */
  wideNegation?: { words: ReadonlySet<string>; span: number };
}

// Library constants (vaderSentiment.js): caps emphasis and booster increments.
const C_INCR = 0.733;
const B_INCR = 0.293;
const B_DECR = -0.293;
const N_SCALAR = -0.74;

/** The library's BOOSTER_DICT. */
const BOOSTERS: ReadonlyMap<string, number> = new Map([
  ...INCREASERS.map((word): [string, number] => [word, B_INCR]),
  ...DECREASERS.map((word): [string, number] => [word, B_DECR]),
]);

// The library's REGEX_REMOVE_PUNCTUATION, and the characters of PUNC_LIST's marks: a token's edge must be one of them to be stripped.
const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const PUNCTUATION_CHARS: ReadonlySet<string> = new Set('.!?,;:-\'"');

/**
 * Same result as the library's SentiText.get_words_and_emoticons: split on white space, drop
 * one-character tokens, and strip one PUNC_LIST mark from either end of a token when what
 * remains is the token's punctuation-free form (so "cat!" -> "cat" but ":)" and "don't," stay).
 * The library builds a dictionary of 17 x 2 variants of every word to do this, which
 * dominated its run time; each variant's word is the punctuation-free token itself, so a
 * direct check per token is equivalent.
 */
export function wordsAndEmoticons(text: string): string[] {
  const words: string[] = [];
  for (const token of text.split(/\s/)) {
    if (token.length > 1) words.push(stripEdgePunctuation(token));
  }
  return words;
}

function stripEdgePunctuation(token: string): string {
  if (!PUNCTUATION_CHARS.has(token[0] ?? '') && !PUNCTUATION_CHARS.has(token.at(-1) ?? '')) {
    return token;
  }
  const bare = token.replace(PUNCTUATION, '');
  if (bare.length <= 1) return token;
  if (token.endsWith(bare) && PUNC_MARKS.has(token.slice(0, token.length - bare.length))) return bare;
  if (token.startsWith(bare) && PUNC_MARKS.has(token.slice(bare.length))) return bare;
  return token;
}

/**
 * Python's str.isupper as the library states it (/^[^a-z]*[A-Z]+[^a-z]*$/): some ASCII
 * capitals and no lower-case ASCII letters. A character loop: this runs for every word.
 */
function isUpper(word: string): boolean {
  let capitals = false;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code >= 97 && code <= 122) return false;
    if (code >= 65 && code <= 90) capitals = true;
  }
  return capitals;
}

/** True when some but not all words are in capitals (then capitals signal emphasis). */
function capsDifferential(words: readonly string[]): boolean {
  let caps = 0;
  for (const word of words) if (isUpper(word)) caps += 1;
  const others = words.length - caps;
  return others > 0 && others < words.length;
}

function boosterScalar(word: string, valence: number, capsDiff: boolean): number {
  let scalar = BOOSTERS.get(word.toLowerCase());
  if (scalar === undefined) return 0;
  if (valence < 0) scalar *= -1;
  if (capsDiff && isUpper(word)) scalar += valence > 0 ? C_INCR : -C_INCR;
  return scalar;
}

interface TextState {
  words: string[];
  /** The words the rule methods see: lower-cased when `foldCase`. */
  ruleWords: string[];
  lower: string[];
  capsDiff: boolean;
  /** Clause number per word when `clauseScope`. */
  clause: number[];
}

/** Clause number of each word of wordsAndEmoticons(text). */
function clauseNumbers(text: string): number[] {
  const numbers: number[] = [];
  let clause = 0;
  for (const token of text.split(/\s/)) {
    if (token.length > 1) numbers.push(clause);
    if (/[,.;:!?]$/.test(token)) clause += 1;
  }
  return numbers;
}

function wordValence(state: TextState, index: number, rules: EngineRules): number {
  const { words, ruleWords, lower, capsDiff, clause } = state;
  const item = words[index] ?? '';
  let valence = rules.lexicon.get(lower[index] ?? '');
  if (valence === undefined) return 0;
  const wide = rules.wideNegation?.words.has(lower[index] ?? '') === true;
  if (capsDiff && isUpper(item)) valence += valence > 0 ? C_INCR : -C_INCR;
  for (let startI = 0; startI < 3; startI++) {
    const before = index - (startI + 1);
    if (before < 0) continue;
    if (rules.clauseScope && clause[before] !== clause[index]) break;
    if (rules.lexicon.has(lower[before] ?? '')) continue;
    let scalar = boosterScalar(words[before] ?? '', valence, capsDiff);
    if (startI === 1) scalar *= 0.95;
    else if (startI === 2) scalar *= 0.9;
    valence = wide ? valence + scalar : vader.never_check(valence + scalar, ruleWords, startI, index);
    if (startI === 2) valence = vader.idioms_check(valence, ruleWords, index);
  }
  if (wide && negatedBefore(state, index, rules)) valence *= N_SCALAR;
  return vader.least_check(valence, words, index);
}

/**
 * An odd number of negators (or "no" up to two words back) within `wideNegation.span` words
 * before `index`, in its clause. Two cancel: "I don't see how it doesn't go higher" is bullish.
 */
function negatedBefore(state: TextState, index: number, rules: EngineRules): boolean {
  const span = rules.wideNegation?.span ?? 3;
  let negators = 0;
  for (let before = index - 1; before >= 0 && before >= index - span; before--) {
    if (rules.clauseScope && state.clause[before] !== state.clause[index]) break;
    const word = state.ruleWords[before] ?? '';
    // "no" governs only the next word or two ("no rug", "no more dumping"): "no fud, just
    // bullish" must not flip "bullish". "no way" negates the whole clause.
    const no = index - before <= 2 || state.lower[before + 1] === 'way';
    if (word === 'no' ? no : NEGATE.has(word) || word.includes("n't")) negators += 1;
  }
  return negators % 2 === 1;
}

/** VADER compound polarity in [-1, 1] of `text` under `rules`. */
export function compoundPolarity(text: string, rules: EngineRules): number {
  const words = wordsAndEmoticons(text);
  const lower = words.map((word) => word.toLowerCase());
  const ruleWords = rules.foldCase ? lower : words;
  const clause = rules.clauseScope ? clauseNumbers(text) : [];
  const state: TextState = { words, ruleWords, lower, capsDiff: capsDifferential(words), clause };
  let sentiments: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = lower[i] ?? '';
    const kindOf = word === 'kind' && lower[i + 1] === 'of';
    sentiments.push(kindOf || BOOSTERS.has(word) ? 0 : wordValence(state, i, rules));
  }
  sentiments = vader.but_check(ruleWords, sentiments);
  return vader.score_valence(sentiments, text).compound;
}
