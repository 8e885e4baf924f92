/** Paths and loaders shared by the sentiment tests. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLabelledPosts, parseRatedTweets, type RatedText } from '../../../shared/sentiment/evaluation.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The human-rated tweets live beside the repository, in the shared data folder. */
export const tweetsDevPath = resolve(repoRoot, '../shared/data/sentiment/tweets-dev.tsv');

export function tweetsDev(): RatedText[] {
  return parseRatedTweets(readFileSync(tweetsDevPath, 'utf8'));
}

export function cryptoSet(name: 'crypto-dev' | 'crypto-heldout'): RatedText[] {
  return parseLabelledPosts(readFileSync(resolve(repoRoot, 'test/fixtures/sentiment', `${name}.tsv`), 'utf8'));
}
