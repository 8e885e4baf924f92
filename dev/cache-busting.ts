/**
 * Issue 38 item 6's figure: the API's CPU for a stream of distinct-key reads (each a cache miss:
 * history `from`, news `page`/`token`/`limit`, trending `?at=`) against the same number of
 * repeated, cached reads of the same routes, on a stack of its own (the API in this process, so
 * its CPU is this process's, the client's included, alike in both streams). 30 days of history
 * (1,440 refreshes) are made first by copying the first refresh's entries back in time. Prints
 * µs of CPU per request for each route and the ratio distinct/cached. The streams are the bench's
 * (bench/lib/cache-busting.ts); its cache-busting phase measures the API process's CPU alone.
 *
 *   npx tsx dev/cache-busting.ts [requests=2000] [refreshes=1440] [minutes between them=30]
 */
import { Agent, request } from 'node:http';
import { backfillTrendingHistory, bustingStreams } from './cache-busting-streams.js';
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
await backfillTrendingHistory(stack.redis, token, refreshes, spacingMs);
const routes = bustingStreams(token, Date.now(), refreshes, spacingMs);

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
