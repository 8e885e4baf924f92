/**
 * `npx tsx dev/history-memory.ts [days] [posts]`: the Redis memory history takes at the
 * simulator's scale (docs/decisions.md#d11). A private redis-server and the simulator (SIM_POSTS, default
 * 1,000 posts), then the worker's three refresh jobs every 30 simulated minutes for `days`
 * (default 32, so the 30-day retention has trimmed), the simulator's clock moving with them.
 * Prints the memory of the history keys (MEMORY USAGE, every entry counted) after each day.
 */
import { startSimulator } from '../apps/index-sim/src/server.js';
import { createIndexClient } from '../apps/worker/src/providers/index-client.js';
import { createJobContext } from '../apps/worker/src/jobs/create-job-context.js';
import { refreshNews } from '../apps/worker/src/jobs/refresh-news.js';
import { refreshList } from '../apps/worker/src/jobs/refresh-list.js';
import { createLogger } from '../shared/logger.js';
import { createRedis } from '../shared/redis.js';
import { startTestRedis } from './redis-server.js';

const days = Number(process.argv[2] ?? 32);
const posts = Number(process.argv[3] ?? 1000);
const HALF_HOUR = 30 * 60_000;
const DAY = 86_400_000;

const server = await startTestRedis();
const sim = await startSimulator({ postCount: posts });
const redis = createRedis({ redisUrl: server.url, redisTlsInsecure: false }, 'worker', 'history-memory');
let clock = Date.now() - days * DAY;
const context = createJobContext({
  redis,
  provider: createIndexClient({ baseUrl: sim.url, apiKey: undefined }),
  logger: createLogger({ logLevel: 'warn' }, 'history-memory'),
  // The retention is measured against the refresh times, as in production where they are "now".
  now: () => new Date(clock),
  historyMs: 30 * DAY,
});

/** Bytes of every history key (`ms:{<refresh job>}:history:*`), and how many keys. */
async function historyBytes(): Promise<{ bytes: number; keys: number; entries: number }> {
  let bytes = 0;
  let entries = 0;
  const found = await redis.keys('ms:*:history:*');
  for (const key of found) {
    bytes += Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
    if ((await redis.type(key)) === 'stream') entries += await redis.xlen(key);
  }
  return { bytes, keys: found.length, entries };
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
process.stdout.write(`simulator: ${posts} posts; refreshes every 30 min for ${days} days\n`);
for (let day = 1; day <= days; day += 1) {
  for (let slot = 0; slot < 48; slot += 1) {
    clock += HALF_HOUR;
    sim.advanceClock(HALF_HOUR);
    await refreshList(context, 'trending');
    await refreshList(context, 'trending-cas');
    await refreshNews(context);
  }
  const { bytes, keys, entries } = await historyBytes();
  const used = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0);
  process.stdout.write(
    `day ${String(day).padStart(2)}: history ${mb(bytes)} in ${keys} keys, ${entries} entries; Redis used_memory ${mb(used)}\n`,
  );
}
await redis.quit();
await sim.close();
await server.stop();
