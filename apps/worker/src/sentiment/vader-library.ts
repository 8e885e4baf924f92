/**
 * Typed boundary around `vader-sentiment` (CommonJS, untyped). The bundle exports only the
 * analyzer class: its lexicon is closed over inside the bundle and cannot be extended, so we
 * read the same lexicon from the `vader_lexicon.txt` the package ships and reuse the class's
 * lexicon-independent rule methods (negation, idioms, "least", "but", punctuation, normalising).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** What the library computes for one text; `compound` is the polarity in [-1, 1]. */
export interface VaderScores {
  neg: number;
  neu: number;
  pos: number;
  compound: number;
}

/** The static methods of the library's `SentimentIntensityAnalyzer` that we rely on. */
export interface VaderAnalyzer {
  polarity_scores(text: string): VaderScores;
  never_check(valence: number, words: string[], startI: number, index: number): number;
  idioms_check(valence: number, words: string[], index: number): number;
  least_check(valence: number, words: string[], index: number): number;
  /** Mutates and returns `sentiments`. */
  but_check(words: string[], sentiments: number[]): number[];
  /** `text` is only read for "!" and "?" emphasis. */
  score_valence(sentiments: number[], text: string): VaderScores;
}

const require = createRequire(import.meta.url);

function loadAnalyzer(): VaderAnalyzer {
  const exported: unknown = require('vader-sentiment');
  const analyzer = (exported as { SentimentIntensityAnalyzer?: unknown }).SentimentIntensityAnalyzer;
  if (typeof analyzer !== 'function' || !('polarity_scores' in analyzer)) {
    throw new Error('vader-sentiment: SentimentIntensityAnalyzer not found');
  }
  return analyzer as unknown as VaderAnalyzer;
}

/** The unmodified library analyzer (static methods; call them on this object). */
export const vaderAnalyzer: VaderAnalyzer = loadAnalyzer();

/**
 * The library's lexicon, word -> mean valence in [-4, 4]. The file lists a few words twice;
 * the bundled object keeps the later entry, so a later line wins here too.
 */
export function loadVaderLexicon(): Map<string, number> {
  const path = require.resolve('vader-sentiment/vader_lexicon.txt');
  const lexicon = new Map<string, number>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [word, valence] = line.split('\t');
    if (word === undefined || valence === undefined) continue;
    lexicon.set(word, Number(valence));
  }
  return lexicon;
}
