/**
 * Issue 38 item 6's figure: the API's CPU for a stream of distinct-key reads (each a cache miss:
 * history `from`, news `page`/`token`/`limit`, trending `?at=`) against the same number of
 * repeated, cached reads of the same routes, on a stack of its own (the API in this process, so
 * its CPU is this process's, the client's included, alike in both streams). 30 days of history
 * (1,440 refreshes) are made first by copying the first refresh's entries back in time. Prints
 * µs of CPU per request for each route and the ratio distinct/cached.
 *
 *   npx tsx dev/cache-busting.ts [requests=2000] [refreshes=1440] [minutes between them=30]
 */
import { Agent, request } from 'node:http';
import { historyKeys } from '../shared/snapshot-keys.js';
import { startInProcessStack } from './inprocess-stack.js';

const requests = Number(process.argv[2] ?? 2000);
const refreshes = Number(process.argv[3] ?? 1440);
const spacingMs = Number(process.argv[4] ?? 30) * 60_000;
const stack = await startInProcessStack({ HISTORY_DAYS: '30' });
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const get = (path: string) =>
  new Promise<number>((resolve, reject) => {
    request(`${stack.api}${path}`, { agent, headers: { 'Accept-Encoding': 'br' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });

// Wait for history: a news and a trending refresh.
const token = await (async () => {
  for (;;) {
    const res = await fetch(`${stack.api}/api/market/trending`);
    if (res.ok) return ((await res.json()) as { data: { token: string }[] }).data[0]!.token;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
})();
for (const key of [historyKeys.token(token), historyKeys.trendingTimes(), historyKeys.events('trending')]) {
  const [[id, fields]] = (await stack.redis.xrevrange(key, '+', '-', 'COUNT', 1)) as [[string, string[]]];
  const lastMs = Number(id.split('-')[0]);
  const batch = stack.redis.pipeline().del(key);
  for (let back = refreshes - 1; back >= 1; back -= 1) batch.xadd(key, `${lastMs - back * spacingMs}-0`, ...fields);
  await batch.xadd(key, id, ...fields).exec();
}
const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const routes: Record<string, { cached: string; distinct: (n: number) => string }> = {
  'token history': {
    cached: `/api/market/tokens/${token}/history?interval=30m`,
    distinct: (n) => `/api/market/tokens/${token}/history?interval=30m&from=${iso(now - 30 * 86_400_000 + n * 1000)}`,
  },
  'news page': {
    cached: '/api/market/news?page=1&limit=20',
    distinct: (n) => `/api/market/news?page=${1 + (n % 50)}&limit=${1 + (n % 49)}`,
  },
  'news token': { cached: `/api/market/news?token=${token}`, distinct: (n) => `/api/market/news?token=ZZ${n}` },
  'news past end': { cached: '/api/market/news?page=1&limit=20', distinct: (n) => `/api/market/news?page=${1000 + n}` },
  'trending ?at=': {
    cached: `/api/market/trending?at=${iso(now)}`,
    distinct: (n) => `/api/market/trending?at=${iso(now - (n % (refreshes - 1)) * spacingMs)}`,
  },
};

/** Answers of 500 and above, per route (a miss that timed out is a 503). */
const failures: Record<string, number> = {};

/** This process's CPU (µs) for `paths`, 8 at a time. */
async function cpuOf(paths: string[]): Promise<number> {
  const started = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < paths.length) {
        const path = paths[next++]!;
        if ((await get(path)) >= 500) failures[path.split('?')[0]!] = (failures[path.split('?')[0]!] ?? 0) + 1;
      }
    }),
  );
  const used = process.cpuUsage(started);
  return used.user + used.system;
}

const results: Record<string, { cachedUsPerRequest: number; distinctUsPerRequest: number; ratio: number }> = {};
for (const [name, route] of Object.entries(routes)) {
  await cpuOf(Array.from({ length: 200 }, () => route.cached)); // warm
  const cached = await cpuOf(Array.from({ length: requests }, () => route.cached));
  const distinct = await cpuOf(Array.from({ length: requests }, (_, n) => route.distinct(n + 1)));
  results[name] = {
    cachedUsPerRequest: Math.round(cached / requests),
    distinctUsPerRequest: Math.round(distinct / requests),
    ratio: Math.round((distinct / cached) * 100) / 100,
  };
}
console.log(JSON.stringify({ requests, refreshes, spacingMs, results, failures }, null, 2));
agent.destroy();
await stack.close();
