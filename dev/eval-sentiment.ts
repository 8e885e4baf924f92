/**
 * Measures the polarity scorer against plain `vader-sentiment` on the human-rated tweets and
 * the crypto sets. Usage: npm run sentiment:eval -- [tweets.tsv] [--misses]
 * (--misses lists the crypto *dev* set's misclassified posts; held-out sets are never listed,
 * so they cannot be tuned on by accident). Last, times the per-token aggregation of 10,000 posts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { summarizeSentiment, type ScoredPost } from '../shared/sentiment/aggregate.js';
import {
  evaluate, parseRatedTweets, type Evaluation, type RatedText,
} from '../shared/sentiment/evaluation.js';
import { scorePolarity } from '../shared/sentiment/score.js';
import { vaderAnalyzer } from '../shared/sentiment/vader-library.js';
import { cryptoSet, heldoutSets, tweetsDevPath } from './sentiment-data.js';

const args = process.argv.slice(2);
const showMisses = args.includes('--misses');
const tweetsPath = resolve(
  args.find((arg) => !arg.startsWith('--')) ?? tweetsDevPath,
);

const sets: Array<{ name: string; items: RatedText[]; correlate: boolean }> = [
  { name: 'tweets-dev', items: parseRatedTweets(readFileSync(tweetsPath, 'utf8')), correlate: true },
  // The learned layer's training posts: an in-sample figure, not a measure of unseen posts.
  { name: 'crypto-dev', items: cryptoSet('crypto-dev'), correlate: false },
  // Held-out sets (see HELDOUT_SETS): never list their misses.
  ...heldoutSets().map((name) => ({ name, items: cryptoSet(name), correlate: false })),
  { name: 'all held-out', items: heldoutSets().flatMap((name) => cryptoSet(name)), correlate: false },
];

const scorers = {
  'market-signals': (text: string) => scorePolarity(text),
  'plain vader': (text: string) => vaderAnalyzer.polarity_scores(text).compound,
};

function format(result: Evaluation): string {
  const r = Number.isNaN(result.pearson) ? '-' : result.pearson.toFixed(4);
  return `${r.padStart(6)}  ${result.accuracy.toFixed(4)}`;
}

// One line per set: the scorer and plain VADER side by side, measured in this run.
console.log(`tweets: ${tweetsPath}`);
console.log(`${'set'.padEnd(17)}${'n'.padStart(6)}   ${'market-signals r / accuracy'.padEnd(28)}plain vader r / accuracy`);
for (const set of sets) {
  const [ours, vader] = Object.values(scorers).map((score) => evaluate(set.items, score, set.correlate));
  if (ours === undefined || vader === undefined) continue;
  console.log(`${set.name.padEnd(17)}${String(ours.count).padStart(6)}   ${format(ours).padEnd(28)}${format(vader)}`);
  if (showMisses && set.name === 'crypto-dev') {
    for (const miss of ours.misses) console.log(`    ${miss.expected.padEnd(8)} ${miss.got.toFixed(4)}  ${miss.text}`);
  }
}

/** CPU milliseconds (all threads, so JIT compilation counts) of one aggregation. */
function aggregationCpuMs(posts: readonly ScoredPost[]): number {
  const start = process.cpuUsage();
  summarizeSentiment(posts);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const texts = sets.flatMap((set) => set.items.map((item) => item.text));
const tickers = ['BTC', 'ETH', 'SOL', 'DOGE', 'PEPE', 'LINK', 'ARB', 'WIN'];
const posts: ScoredPost[] = Array.from({ length: 10_000 }, (_, i) => ({
  text: texts[i % texts.length] ?? '',
  tokens: [tickers[i % tickers.length] ?? 'BTC', tickers[(i * 7 + 3) % tickers.length] ?? 'ETH'],
  engagementScore: (i * 37) % 5000,
}));
const first = aggregationCpuMs(posts);
const warm = Array.from({ length: 5 }, () => aggregationCpuMs(posts)).sort((a, b) => a - b)[2] ?? 0;
console.log(`aggregate 10,000 posts: first call ${first.toFixed(0)} ms CPU, warm median ${warm.toFixed(0)} ms CPU`);
