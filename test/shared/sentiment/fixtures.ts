/** Paths and loaders shared by the sentiment tests. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLabelledPosts, parseRatedTweets, type RatedText } from '../../../shared/sentiment/evaluation.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The human-rated tweets live beside the repository, in the shared data folder. */
export const tweetsDevPath = resolve(repoRoot, '../shared/data/sentiment/tweets-dev.tsv');

export function tweetsDev(): RatedText[] {
  return parseRatedTweets(readFileSync(tweetsDevPath, 'utf8'));
}

/**
 * Held-out crypto sets (names of files in test/fixtures/sentiment, without `.tsv`), each written
 * by an author who never saw the scorer or its data, committed before being scored, and scored
 * once. Earlier held-out sets were folded into crypto-dev after their one scoring (see its
 * commit history); their misses were read only then.
 */
export const HELDOUT_SETS: readonly string[] = [
  'crypto-heldout-g', 'crypto-heldout-h', 'crypto-heldout-j', 'crypto-heldout-m', 'crypto-heldout-n',
];

export function cryptoSet(name: string): RatedText[] {
  return parseLabelledPosts(readFileSync(resolve(repoRoot, 'test/fixtures/sentiment', `${name}.tsv`), 'utf8'));
}

/** The held-out sets that exist on disk. */
export function heldoutSets(): string[] {
  return HELDOUT_SETS.filter((name) => existsSync(resolve(repoRoot, 'test/fixtures/sentiment', `${name}.tsv`)));
}
