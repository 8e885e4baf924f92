/**
 * `npm run bench:x-cost`: the X cost phase of `npm run bench` on its own (about a minute), with
 * a private Redis: X requests and dollars a day for 100 and 1,000 tracked accounts
 * (bench/phases/x-cost.ts). Prints the table the full run puts in its report.
 */
import { startTestRedis } from '../dev/redis-server.js';
import { measureXCost, renderXCost } from './phases/x-cost.js';

const started = performance.now();
const log = (line: string) => process.stdout.write(`[x-cost ${((performance.now() - started) / 1000).toFixed(0).padStart(3)}s] ${line}\n`);
const redis = await startTestRedis();
try {
  const rows = await measureXCost(redis.url, log);
  process.stdout.write(`\n${renderXCost(rows).join('\n')}\n`);
} catch (error) {
  process.exitCode = 1;
  log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await redis.stop('SIGTERM');
}
process.exit(process.exitCode ?? 0);
