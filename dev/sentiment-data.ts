/** Paths and loaders of the sentiment data (data/sentiment), shared by the sentiment tests and the dev scripts that evaluate and train the scorer. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLabelledPosts, parseRatedTweets, type RatedText } from '../shared/sentiment/evaluation.js';
import { TRAINING_DEFAULTS, type TrainingExample } from '../shared/sentiment/market-model.js';
import { normalizePost } from '../shared/sentiment/normalize.js';
import { rulePolarity } from '../shared/sentiment/score.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The human-rated tweets (VADER's ground truth, MIT: see data/sentiment/README.md). */
export const tweetsDevPath = resolve(repoRoot, 'data/sentiment/tweets-dev.tsv');

export function tweetsDev(): RatedText[] {
  return parseRatedTweets(readFileSync(tweetsDevPath, 'utf8'));
}

/**
 * Held-out crypto sets (names of files in data/sentiment, without `.tsv`), each written
 * by an author who never saw the scorer or its data, committed before being scored, and scored
 * once. Earlier held-out sets were folded into crypto-dev after their one scoring (see its
 * commit history); their misses were read only then.
 */
export const HELDOUT_SETS: readonly string[] = [
  'crypto-heldout-b', 'crypto-heldout-c', 'crypto-heldout-d', 'crypto-heldout-e', 'crypto-heldout-i',
];

export function cryptoSet(name: string): RatedText[] {
  return parseLabelledPosts(readFileSync(setPath(name), 'utf8'));
}

/** The held-out sets that exist on disk. */
export function heldoutSets(): string[] {
  return HELDOUT_SETS.filter((name) => existsSync(setPath(name)));
}

/** The learned layer is trained on crypto-dev, every labelled post that is not held out. */
const TRAINING_SET = 'crypto-dev';

function setPath(name: string): string {
  return resolve(repoRoot, 'data/sentiment', `${name}.tsv`);
}

export function trainingExamples(): TrainingExample[] {
  return cryptoSet(TRAINING_SET).map((post) => {
    const normalized = normalizePost(post.text);
    return { normalized, rulePolarity: rulePolarity(normalized), label: post.expected };
  });
}

/** Changes whenever the training posts, the normalizer's output or the training options do. */
export function trainingDigest(examples: readonly TrainingExample[] = trainingExamples()): string {
  const hash = createHash('sha256').update(JSON.stringify(TRAINING_DEFAULTS));
  for (const example of examples) {
    hash.update(`${example.label}\t${example.rulePolarity}\t${example.normalized}\n`);
  }
  return hash.digest('hex');
}
