/**
 * Polarity of each stdin line, one per output line in the same order, 4 decimals.
 * Streams: memory stays flat for any input size. Usage: npm run --silent sentiment < posts.txt
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { scorePolarity } from '../apps/worker/src/sentiment/score.js';

// A closed reader (`| head`) is a normal way to stop, not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!process.stdout.write(`${scorePolarity(line).toFixed(4)}\n`)) await once(process.stdout, 'drain');
}
