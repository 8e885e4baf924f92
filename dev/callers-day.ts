/**
 * `npx tsx dev/callers-day.ts [hours] [seed]`: the callers leaderboard (docs/decisions.md#callers)
 * on the simulator after `hours` (default 24) of simulated time. A private redis-server and an
 * in-process simulator; the worker's own refresh jobs run every 30 simulated minutes with their
 * clock on the simulator's, as a worker would run them. Prints the leaderboard (30d, minCalls 1,
 * by hit rate), the breakouts with their first callers, and the simulator's early accounts.
 */
import { createJobContext } from '../apps/worker/src/jobs/create-job-context.js';
import { refreshList } from '../apps/worker/src/jobs/refresh-list.js';
import { refreshNews } from '../apps/worker/src/jobs/refresh-news.js';
import { createIndexClient } from '../apps/worker/src/providers/index-client.js';
import { startSimulator } from '../apps/index-sim/src/server.js';
import { earlyAccounts } from '../apps/index-sim/src/surges.js';
import { generateAccounts } from '../apps/index-sim/src/accounts.js';
import { DEFAULT_CALLERS } from '../shared/callers/callers-config.js';
import { breakoutsOf, knownAt, leaderboard, WINDOW_MS } from '../shared/callers/figures.js';
import { CallersRecords } from '../shared/callers/records-reader.js';
import { createRedis } from '../shared/redis.js';
import { startTestRedis } from './redis-server.js';

const hours = Number(process.argv[2] ?? 24);
const seed = Number(process.argv[3] ?? 42);
const STEP = 30 * 60_000;

const server = await startTestRedis();
const redis = createRedis({ redisUrl: server.url, redisTlsInsecure: false }, 'worker', 'callers-day');
const start = Date.now();
let offset = 0;
const sim = await startSimulator({ seed, now: () => start });
const logger = { info() {}, warn() {}, error() {}, debug() {} } as never;
const context = createJobContext({
  redis,
  provider: createIndexClient({ baseUrl: sim.url, apiKey: undefined }),
  logger,
  now: () => new Date(start + offset),
});

for (let step = 0; step <= (hours * 3_600_000) / STEP; step++) {
  await refreshList(context, 'trending');
  await refreshList(context, 'trending-cas');
  await refreshNews(context);
  sim.advanceClock(STEP);
  offset += STEP;
}
const atMs = start + offset - STEP;
const { calls, breakouts } = await new CallersRecords(redis, DEFAULT_CALLERS.horizonMs).load(atMs);
const known = knownAt(calls, breakouts, atMs, DEFAULT_CALLERS.horizonMs);
const early = earlyAccounts(seed, generateAccounts(seed));
process.stdout.write(
  `${hours} h simulated (seed ${seed}): ${calls.length} calls, ${breakouts.length} breakouts; early accounts: ${[...early].join(', ')}\n\n`,
);
process.stdout.write('username            calls hits pending misses hitRate medianLead(min)\n');
for (const row of leaderboard(known, WINDOW_MS['30d'], 'hitRate', 1).slice(0, 15))
  process.stdout.write(
    `${row.username.padEnd(20)}${String(row.calls).padStart(5)}${String(row.hits).padStart(5)}${String(row.pending).padStart(8)}${String(row.misses).padStart(7)}${String(row.hitRate ?? '-').padStart(8)}${String(row.medianLeadMinutes ?? '-').padStart(16)}${early.has(row.username) ? '  (early)' : ''}\n`,
  );
process.stdout.write('\nbreakouts:\n');
for (const breakout of breakouts) {
  const [found] = breakoutsOf(known, breakout.subject, breakout.id, WINDOW_MS['7d']).filter(
    (b) => b.at === new Date(breakout.atMs).toISOString(),
  );
  const first = (found?.firstCallers ?? []).slice(0, 3).map((c) => `${c.username} ${c.leadMinutes}m`);
  process.stdout.write(
    `  ${new Date(breakout.atMs).toISOString()} ${breakout.id}: ${found?.callers ?? 0} callers; first ${first.join(', ')}\n`,
  );
}
redis.disconnect();
await sim.close();
await server.stop();
