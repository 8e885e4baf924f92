/**
 * The worker's news refresh (posts + sentiment, both snapshots written) run back to back in a
 * process of its own, so its CPU time and RSS are the worker's alone: the simulator it reads
 * from lives in the orchestrator. Prints one JSON line: a sample per refresh. Refreshes alternate
 * between writing history (HISTORY_DAYS=30) and not (HISTORY_DAYS=0), so the two CPU figures
 * come from the same process, interleaved.
 *
 * argv[2]: JSON `{ redisUrl, simUrl, refreshes }`.
 */
import { createIndexClient } from '../../apps/worker/src/providers/index-client.js';
import { createJobContext } from '../../apps/worker/src/jobs/create-job-context.js';
import { refreshNews } from '../../apps/worker/src/jobs/refresh-news.js';
import { createLogger } from '../../shared/logger.js';
import { createRedis } from '../../shared/redis.js';
import type { RefreshSample } from '../lib/types.js';

const { redisUrl, simUrl, refreshes } = JSON.parse(process.argv[2] ?? '{}') as { redisUrl: string; simUrl: string; refreshes: number };

const HISTORY_MS = 30 * 86_400_000;
const redis = createRedis({ redisUrl, redisTlsInsecure: false }, 'worker', 'bench-worker-refresh');
const context = createJobContext({
  redis,
  provider: createIndexClient({ baseUrl: simUrl, apiKey: undefined }),
  logger: createLogger({ logLevel: 'warn' }, 'bench-worker'),
  now: () => new Date(),
  historyMs: HISTORY_MS,
});

const samples: RefreshSample[] = [];
for (let i = 0; i < refreshes; i += 1) {
  const history = i % 2 === 1;
  context.historyMs = history ? HISTORY_MS : 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const { items, tokens } = await refreshNews(context);
  const cpu = process.cpuUsage(cpuBefore);
  samples.push({
    items,
    tokens,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs: performance.now() - started,
    rssBytes: process.memoryUsage.rss(),
    history,
  });
}
await redis.quit();
process.stdout.write(`${JSON.stringify(samples)}\n`);
