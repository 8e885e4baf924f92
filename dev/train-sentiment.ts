/**
 * Trains the learned layer of the polarity scorer on the repository's labelled crypto posts and on
 * posts tagged bullish/bearish by their own authors, and writes its weights, with the sha256 of
 * each tagged file, to apps/worker/src/sentiment/market-model.json. Held-out sets are never read here.
 * With --comments=<comments.tsv> (label<TAB>text, pos/neg: comments people wrote, labelled by
 * annotators), those train too, as `COMMENTS_IN` says (docs/decisions.md#d2), recorded as a source.
 * Each tagged file's authors are read from `<file>.authors.txt` beside it where the training options weigh posts by author.
 * Usage: npm run sentiment:train -- <tagged.tsv> [<tagged.tsv> ...] [--comments=<comments.tsv>]
 */
import { writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { STANCE_DEFAULTS, TRAINING_DEFAULTS, trainMarketModel, trainStanceModel, toModelFile } from './market-model-training.js';
import {
  commentTraining,
  committedTraderLexicon,
  fileSha256,
  readAuthors,
  readTaggedPosts,
  repoRoot,
  taggedExamples,
  trainingDigest,
  trainingExamples,
  traderLexiconPath,
} from './sentiment-data.js';

const paths = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const commentsPath = process.argv
  .slice(2)
  .find((arg) => arg.startsWith('--comments='))
  ?.slice('--comments='.length);
if (paths.length === 0) {
  // Training without them would silently drop what real traders taught the model.
  console.error('usage: npm run sentiment:train -- <tagged.tsv> [<tagged.tsv> ...]  (the author-tagged posts, label<TAB>text)');
  process.exit(2);
}
const repository = trainingExamples();
// Each post's author, from `<file>.authors.txt` beside it (`TrainingOptions.authorCap`, `minAuthors` read it).
const readsAuthors = [TRAINING_DEFAULTS, STANCE_DEFAULTS.options].some(
  (options) => options.authorCap !== undefined || options.minAuthors !== undefined,
);
const tagged = paths.map((path) => {
  const posts = readTaggedPosts(path);
  const authors = readAuthors(path, posts.length);
  if (authors === undefined && readsAuthors) {
    console.error(`${path.replace(/\.tsv$/, '')}.authors.txt not found: the training options weigh the posts by author, one id per post`);
    process.exit(2);
  }
  return { path, posts: authors === undefined ? posts : posts.map((post, i) => ({ ...post, author: authors[i] ?? '' })) };
});
const taggedPosts = taggedExamples(tagged.flatMap(({ posts }) => posts));
const comments = commentsPath === undefined ? [] : readTaggedPosts(commentsPath);
const commented = commentTraining(comments);
const examples = [...repository, ...taggedPosts, ...commented.main];
const started = performance.now();
const main = trainMarketModel(examples);
// The stance model learns from the tagged posts (and comments), the generated ones only regularise it (see MarketModel.stance).
const withStance =
  STANCE_DEFAULTS.mix > 0 ? { ...main, stance: trainStanceModel([...taggedPosts, ...commented.stance], repository) } : main;
// The trader lexicon ships inside the weights where a model reads its lean, with the sha256 of its file.
const readsLexicon = TRAINING_DEFAULTS.lexicon === true || (STANCE_DEFAULTS.mix > 0 && STANCE_DEFAULTS.options.lexicon === true);
const model = readsLexicon ? { ...withStance, lexicon: committedTraderLexicon() } : withStance;
const sources = [
  ...tagged.map(({ path, posts }) => ({ file: basename(path), sha256: fileSha256(path), examples: posts.length })),
  ...(commentsPath === undefined
    ? []
    : [{ file: basename(commentsPath), sha256: fileSha256(commentsPath), examples: comments.length, kind: 'comments' as const }]),
];
// Every example counts once, whichever models it trains.
const file = toModelFile(model, trainingDigest(repository), repository.length + taggedPosts.length + comments.length, sources, {
  file: basename(traderLexiconPath),
  sha256: fileSha256(traderLexiconPath),
});
writeFileSync(resolve(repoRoot, 'apps/worker/src/sentiment/market-model.json'), `${JSON.stringify(file)}\n`);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `trained on ${repository.length} repository posts, ${taggedPosts.length} tagged posts and ${comments.length} comments in ${seconds} s: ${file.features.length} features` +
    (file.stance === undefined ? '' : `, stance model ${file.stance.features.length} features (mix ${file.stance.mix})`),
);
