/**
 * Measures the polarity scorer beside plain `vader-sentiment`, in the same run.
 *
 * npm run sentiment:eval -- <file> [--misses]
 *   any `label<TAB>text` file (label bullish/bearish/neutral or pos/neg) or human-rated tweets
 *   (`id<TAB>rating<TAB>text`): accuracy (a neutral score is a miss on a post with a stance), the
 *   share scored neutral, a confusion table, and for rated tweets Pearson r; --misses lists ours.
 * npm run sentiment:eval
 *   the repository's sets: tweets-dev (r and 3-class accuracy), crypto-dev (the learned layer's
 *   own training posts, so in-sample) and the held-out sets (their misses are never listed, so
 *   they cannot be tuned on by accident); then times the per-token aggregation of 10,000 posts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { summarizeSentiment, type ScoredPost } from '../apps/worker/src/sentiment/aggregate.js';
import { evaluate, isLabelledLine, parseLabelledPosts, parseRatedTweets, type Evaluation, type RatedText } from './sentiment-evaluation.js';
import type { PolarityClass } from '../apps/worker/src/sentiment/score.js';
import { plainVaderPolarity, scorePolarity } from '../apps/worker/src/sentiment/score.js';
import { cryptoSet, heldoutSets, tweetsDevPath } from './sentiment-data.js';

const args = process.argv.slice(2);
const showMisses = args.includes('--misses');
const file = args.find((arg) => !arg.startsWith('--'));

const scorers = {
  'market-signals': (text: string) => scorePolarity(text),
  'plain vader': plainVaderPolarity,
} as const;

const f4 = (x: number): string => (Number.isNaN(x) ? '-' : x.toFixed(4));

function format(result: Evaluation): string {
  return `${f4(result.pearson).padStart(6)}  ${result.accuracy.toFixed(4)}  ${result.neutralShare.toFixed(4)}`;
}

const CLASSES: readonly PolarityClass[] = ['negative', 'neutral', 'positive'];

function confusionTable(name: string, result: Evaluation): string[] {
  const expected = CLASSES.filter((kind) => CLASSES.some((got) => result.confusion[kind][got] > 0));
  return [
    `${name}: rows expected, columns scored`,
    `  ${''.padEnd(10)}${CLASSES.map((kind) => kind.padStart(10)).join('')}`,
    ...expected.map((kind) => `  ${kind.padEnd(10)}${CLASSES.map((got) => String(result.confusion[kind][got]).padStart(10)).join('')}`),
  ];
}

/** A labelled file, or rated tweets when its first line is not `label<TAB>text`. */
function readSet(path: string): { items: RatedText[]; rated: boolean } {
  const text = readFileSync(path, 'utf8');
  const first = text.split('\n').find((line) => line.trim() !== '') ?? '';
  return isLabelledLine(first) ? { items: parseLabelledPosts(text), rated: false } : { items: parseRatedTweets(text), rated: true };
}

function reportFile(path: string): void {
  const { items, rated } = readSet(path);
  const [ours, vader] = Object.values(scorers).map((score) => evaluate(items, score, rated));
  if (ours === undefined || vader === undefined) return;
  console.log(`${path}: ${items.length} ${rated ? 'rated texts (r against the rating)' : 'labelled posts'}`);
  console.log(`${'scorer'.padEnd(16)}${'r'.padStart(6)}  accuracy  neutral`);
  console.log(`${'market-signals'.padEnd(16)}${format(ours)}`);
  console.log(`${'plain vader'.padEnd(16)}${format(vader)}`);
  console.log([...confusionTable('market-signals', ours), ...confusionTable('plain vader', vader)].join('\n'));
  if (showMisses) for (const miss of ours.misses) console.log(`    ${miss.expected.padEnd(8)} ${miss.got.toFixed(4)}  ${miss.text}`);
}

function reportRepositorySets(): void {
  const sets: Array<{ name: string; items: RatedText[]; correlate: boolean }> = [
    { name: 'tweets-dev', items: parseRatedTweets(readFileSync(tweetsDevPath, 'utf8')), correlate: true },
    { name: 'crypto-dev', items: cryptoSet('crypto-dev'), correlate: false },
    ...heldoutSets().map((name) => ({ name, items: cryptoSet(name), correlate: false })),
    { name: 'all held-out', items: heldoutSets().flatMap((name) => cryptoSet(name)), correlate: false },
  ];
  console.log(`${'set'.padEnd(17)}${'n'.padStart(6)}   ${'market-signals r / acc / neutral'.padEnd(34)}plain vader r / acc / neutral`);
  for (const set of sets) {
    const [ours, vader] = Object.values(scorers).map((score) => evaluate(set.items, score, set.correlate));
    if (ours === undefined || vader === undefined) continue;
    console.log(`${set.name.padEnd(17)}${String(ours.count).padStart(6)}   ${format(ours).padEnd(34)}${format(vader)}`);
    if (showMisses && set.name === 'crypto-dev') {
      for (const miss of ours.misses) console.log(`    ${miss.expected.padEnd(8)} ${miss.got.toFixed(4)}  ${miss.text}`);
    }
  }
  timeAggregation(sets.flatMap((set) => set.items.map((item) => item.text)));
}

/** CPU milliseconds (all threads, so JIT compilation counts) of one aggregation. */
function aggregationCpuMs(posts: readonly ScoredPost[]): number {
  const start = process.cpuUsage();
  summarizeSentiment(posts);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function timeAggregation(texts: readonly string[]): void {
  const tickers = ['BTC', 'ETH', 'SOL', 'DOGE', 'PEPE', 'LINK', 'ARB', 'WIN'];
  const posts: ScoredPost[] = Array.from({ length: 10_000 }, (_, i) => ({
    text: texts[i % texts.length] ?? '',
    tokens: [tickers[i % tickers.length] ?? 'BTC', tickers[(i * 7 + 3) % tickers.length] ?? 'ETH'],
    engagementScore: (i * 37) % 5000,
    author: `author${i % 700}`,
  }));
  const first = aggregationCpuMs(posts);
  const warm = Array.from({ length: 5 }, () => aggregationCpuMs(posts)).sort((a, b) => a - b)[2] ?? 0;
  console.log(`aggregate 10,000 posts: first call ${first.toFixed(0)} ms CPU, warm median ${warm.toFixed(0)} ms CPU`);
}

if (file === undefined) reportRepositorySets();
else reportFile(resolve(file));
