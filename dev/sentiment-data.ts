/** Paths and loaders of the sentiment data (data/sentiment), shared by the sentiment tests and the dev scripts that evaluate and train the scorer. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLabelledPosts, parseRatedTweets, type RatedText } from './sentiment-evaluation.js';
import { FEATURES_VERSION } from '../apps/worker/src/sentiment/market-model.js';
import { STANCE_DEFAULTS, TRAINING_DEFAULTS, type TrainingExample } from './market-model-training.js';
import { normalizePost } from '../apps/worker/src/sentiment/normalize.js';
import { rulePolarity } from '../apps/worker/src/sentiment/score.js';
import { lexiconLean, type TraderLexicon } from '../apps/worker/src/sentiment/trader-lexicon.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The human-rated tweets (VADER's ground truth, MIT: see data/sentiment/README.md). */
export const tweetsDevPath = resolve(repoRoot, 'data/sentiment/tweets-dev.tsv');

/**
 * The crypto lexicon of Chen, Després, Guo and Renault (2019), committed with its attribution
 * (data/sentiment/README.md): `keyword,sw,positive_occurrences,negative_occurrences`.
 */
export const traderLexiconPath = resolve(repoRoot, 'data/sentiment/crypto-lexicon-chen2019.csv');

/** n-gram -> lean, rounded to 4 decimals as the weights file ships it, so training reads what scoring will. */
export function readTraderLexicon(path: string = traderLexiconPath): Map<string, number> {
  const [header, ...rows] = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  if (header !== 'keyword,sw,positive_occurrences,negative_occurrences') throw new Error(`${path}: unexpected header ${header ?? ''}`);
  return new Map(
    rows.map((row) => {
      const [keyword = '', sw = ''] = row.split(',');
      const lean = Number(sw);
      if (keyword === '' || !Number.isFinite(lean)) throw new Error(`${path}: bad row ${row}`);
      return [keyword, Math.round(lean * 1e4) / 1e4];
    }),
  );
}

let traderLexicon: TraderLexicon | undefined;
/** The committed trader lexicon, read once. */
export function committedTraderLexicon(): TraderLexicon {
  traderLexicon ??= readTraderLexicon();
  return traderLexicon;
}

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
  'crypto-heldout-b',
  'crypto-heldout-c',
  'crypto-heldout-d',
  'crypto-heldout-e',
  'crypto-heldout-i',
];

export function cryptoSet(name: string): RatedText[] {
  return parseLabelledPosts(readFileSync(setPath(name), 'utf8'));
}

/** The held-out sets that exist on disk. */
export function heldoutSets(): string[] {
  return HELDOUT_SETS.filter((name) => existsSync(setPath(name)));
}

/**
 * The repository's own training posts: crypto-dev, every generated post that is not held out. They
 * teach the neutral class, slang and the lexicon's words; author-tagged posts (below) teach how
 * real traders write.
 */
const TRAINING_SET = 'crypto-dev';

function setPath(name: string): string {
  return resolve(repoRoot, 'data/sentiment', `${name}.tsv`);
}

function toExample(post: RatedText, weight = 1): TrainingExample {
  const normalized = normalizePost(post.text);
  const lean = lexiconLean(committedTraderLexicon(), post.text);
  return {
    normalized,
    rulePolarity: rulePolarity(normalized),
    label: post.expected,
    weight,
    ...(lean === undefined ? {} : { lexiconLean: lean }),
    ...(post.author === undefined ? {} : { author: post.author }),
  };
}

export function trainingExamples(): TrainingExample[] {
  return cryptoSet(TRAINING_SET).map((post) => toExample(post));
}

/**
 * How much all author-tagged posts weigh together, against the repository's ~15,000 generated
 * posts weighing 1 each: chosen by cross-validation (`npm run sentiment:cv`), and split equally
 * between the two classes, so the trainer's majority class (58 % bullish) is not a prior.
 */
export const TAGGED_POSTS_WEIGHT = 1;

/** A `label<TAB>text` file of posts tagged by their authors (not in the repository: a path). */
export function readTaggedPosts(path: string): RatedText[] {
  return parseLabelledPosts(readFileSync(path, 'utf8'));
}

/** `x.tsv`'s authors, from `x.authors.txt` beside it (line N: post N's author); undefined where there is no such file. */
export function readAuthors(postsPath: string, posts: number): string[] | undefined {
  const path = postsPath.replace(/\.tsv$/, '') + '.authors.txt';
  if (!existsSync(path)) return undefined;
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length !== posts) throw new Error(`${path}: ${lines.length} authors for ${posts} posts`);
  return lines;
}

/** Tagged posts as training examples, each class weighing `total / 2` posts' worth per post on average. */
export function taggedExamples(posts: readonly RatedText[], weight: number = TAGGED_POSTS_WEIGHT): TrainingExample[] {
  const perClass = new Map<string, number>();
  for (const post of posts) perClass.set(post.expected, (perClass.get(post.expected) ?? 0) + 1);
  return posts.map((post) => toExample(post, (weight * posts.length) / (perClass.size * (perClass.get(post.expected) ?? 1))));
}

/**
 * How much each annotated comment weighs (classes balanced, as the tagged posts') where
 * `npm run sentiment:train -- ... --comments=<comments.tsv>` trains with them.
 */
export const COMMENTS_WEIGHT = 1;

/**
 * Where the annotated comments train: the stance model only, or the main model as well, there
 * either as ordinary examples (their side against neutral too) or side given a side
 * (`TrainingExample.sidesOnly`): the comments have no neutral class (it was left out of them), so
 * as ordinary examples they teach the main model that the words people use take a side, and
 * neutral news ("$WIF now listed on coinbase. trading opens in phases") turned bullish
 * (docs/decisions.md#d2).
 */
export type CommentsIn = 'stance' | 'both' | 'both, sides only';
export const COMMENTS_IN: CommentsIn = 'both, sides only';

/** Annotated comments (`label<TAB>text`, pos/neg) as training examples, weighing `weight` each on average. */
export function commentExamples(posts: readonly RatedText[], weight: number = COMMENTS_WEIGHT): TrainingExample[] {
  return posts.length === 0 ? [] : taggedExamples(posts, weight);
}

/** The comments' examples for the main model (none, ordinary, or side given a side, as `commentsIn` says) and for the stance model. */
export function commentTraining(
  comments: readonly RatedText[],
  commentsIn: CommentsIn = COMMENTS_IN,
  weight: number = COMMENTS_WEIGHT,
): { main: TrainingExample[]; stance: TrainingExample[] } {
  const stance = commentExamples(comments, weight);
  const main = commentsIn === 'stance' ? [] : stance.map((example) => ({ ...example, sidesOnly: commentsIn === 'both, sides only' }));
  return { main, stance };
}

export function fileSha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * Changes whenever the repository's training posts, the normalizer's output, the rules, the
 * trader lexicon or the training options do (the tagged posts live elsewhere: their sha256 is recorded beside it).
 */
export function trainingDigest(examples: readonly TrainingExample[] = trainingExamples()): string {
  const hash = createHash('sha256').update(
    JSON.stringify({
      ...TRAINING_DEFAULTS,
      tagged: TAGGED_POSTS_WEIGHT,
      features: FEATURES_VERSION,
      stance: STANCE_DEFAULTS,
      comments: { in: COMMENTS_IN, weight: COMMENTS_WEIGHT },
      lexicon: fileSha256(traderLexiconPath),
    }),
  );
  for (const example of examples) {
    hash.update(`${example.label}\t${example.rulePolarity}\t${example.lexiconLean ?? ''}\t${example.normalized}\n`);
  }
  return hash.digest('hex');
}
