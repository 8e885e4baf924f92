/**
 * Issue 38 item 4's flood, reproducible: N distinct unknown usernames, each from its own address
 * (TRUST_PROXY on, X-Forwarded-For), `concurrency` at a time, against a stack of its own. Prints
 * the upstream lookups, how fast the answers came, Redis's memory before and after, and whether a
 * cached username was served throughout.
 *
 *   npx tsx dev/stats-flood.ts [requests=20000] [concurrency=100] [KEY=value ...]
 *   (e.g. STATS_MISS_CEILING=1000000 STATS_QUEUE_MAX=1000000 for the flood without the limits)
 */
import { startInProcessStack } from './inprocess-stack.js';
import { quantile } from './numbers.js';

const [requestsArg, concurrencyArg, ...settings] = process.argv.slice(2);
const requests = Number(requestsArg ?? 20_000);
const concurrency = Number(concurrencyArg ?? 100);
const env = Object.fromEntries(settings.map((setting) => setting.split('=', 2) as [string, string]));
const stack = await startInProcessStack({ TRUST_PROXY: 'true', ...env });
const known = stack.sim.trackedUsernames()[0]!;
const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
const get = (username: string, n: number) =>
  fetch(`${stack.api}/api/market/stats/${username}`, { headers: { 'x-forwarded-for': address(n) } });
await (await get(known, 0)).arrayBuffer();
const memory = async () => Number(/used_memory:(\d+)/.exec(await stack.redis.info('memory'))?.[1]);
const memoryBefore = await memory();
stack.sim.resetStats();

const statuses: Record<string, number> = {};
const latencies: number[] = [];
let knownFailures = 0;
let next = 0;
const started = Date.now();
const knownProbe = setInterval(() => {
  void get(known, 1).then(async (res) => {
    await res.arrayBuffer();
    if (res.status !== 200) knownFailures += 1;
  });
}, 250);
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < requests) {
      const n = (next += 1);
      const sent = performance.now();
      const res = await get(`u${n}z${started % 100_000}`, n + 1);
      await res.arrayBuffer();
      latencies.push(performance.now() - sent);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  }),
);
clearInterval(knownProbe);
const seconds = (Date.now() - started) / 1000;
const ms = (q: number) => Math.round(quantile(latencies, q));
console.log(
  JSON.stringify(
    {
      requests,
      concurrency,
      settings: env,
      seconds,
      answers: statuses,
      upstreamLookups: stack.sim.stats()['/v1/accounts/:username'] ?? 0,
      withinOneSecond: `${((100 * latencies.filter((ms) => ms < 1000).length) / latencies.length).toFixed(1)} %`,
      latencyMs: { p50: ms(0.5), p99: ms(0.99), max: ms(1) },
      redisUsedMemoryMiB: { before: +(memoryBefore / 2 ** 20).toFixed(1), after: +((await memory()) / 2 ** 20).toFixed(1) },
      cachedUsernameFailures: knownFailures,
    },
    null,
    2,
  ),
);
await stack.close();
