/**
 * The news refresh's sentiment step on its own: `summarizeSentiment` over 1,000 posts none of which
 * was scored before (the worker's memo only spares posts it has seen), in a process of its own,
 * so the scorer measured is whichever tree this file was compiled in: this checkout's, or an older
 * revision's (bench/phases/sentiment.ts). Prints one JSON line: the CPU of each pass, ms.
 *
 * argv[2]: JSON `{ posts, passes }`. The texts are the repository's labelled crypto posts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The scorer moved from shared/sentiment to apps/worker/src/sentiment (9bdddf4): this file is
// compiled into older revisions too, so it loads the aggregation from whichever the tree holds.
const here = dirname(fileURLToPath(import.meta.url));
const scorerDir = existsSync(resolve(here, '../../apps/worker/src/sentiment')) ? 'apps/worker/src/sentiment' : 'shared/sentiment';
const { summarizeSentiment } = (await import(
  `../../${scorerDir}/aggregate.js`
)) as typeof import('../../apps/worker/src/sentiment/aggregate.js');

const { posts: count, passes } = JSON.parse(process.argv[2] ?? '{}') as { posts: number; passes: number };
const texts = readFileSync('data/sentiment/crypto-dev.tsv', 'utf8')
  .split('\n')
  .filter((line) => line.includes('\t'))
  .map((line) => line.slice(line.indexOf('\t') + 1));
const TICKERS = ['BTC', 'ETH', 'SOL', 'PEPE', 'DOGE', 'LINK'];

/** Pass `pass`'s posts: every pass reads other texts, so nothing is scored twice in one process. */
function postsOf(pass: number) {
  return Array.from({ length: count }, (_, i) => {
    const n = pass * count + i;
    return {
      text: texts[(n * 7) % texts.length] ?? '',
      tokens: [TICKERS[n % TICKERS.length] ?? 'BTC'],
      engagementScore: (n * 37) % 500,
      author: `author${n % 300}`,
    };
  });
}

// One unmeasured pass: module loading and the JIT's first compilation are not the steady cost.
summarizeSentiment(postsOf(0));
const cpuMs: number[] = [];
for (let pass = 1; pass <= passes; pass += 1) {
  const posts = postsOf(pass);
  const before = process.cpuUsage();
  summarizeSentiment(posts);
  const used = process.cpuUsage(before);
  cpuMs.push((used.user + used.system) / 1000);
}
process.stdout.write(`${JSON.stringify(cpuMs)}\n`);
