/**
 * Issue 38 item 6: reads whose key a client chooses (history `from`, news `page` x `limit`,
 * news `token`, news past the end, trending `?at=`). For each, the API process's CPU per request
 * of a round of distinct keys (every one a miss, never repeated across rounds) against a round
 * of as many cached reads of the same route, interleaved per repetition and judged on the
 * paired ratio. The trending history is first made 30 days long at 30 minutes (1,440 refreshes).
 */
import { Redis } from 'ioredis';
import type { Snapshot, TrendingToken } from '../../shared/market-types.js';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import { backfillTrendingHistory, BUSTING_STREAMS, bustingStreams, type BustingStreamName } from '../../dev/cache-busting-streams.js';
import { expectStatus } from '../lib/http.js';
import { decide, formatInterval, medianInterval, pairedRatios, type Verdict } from '../lib/interval.js';
import { assertClean, watchServer, type LoadGenerator } from '../lib/load.js';
import type { Settings } from '../lib/settings.js';
import type { AppProcess, Stack } from '../lib/stack.js';
import { cpuUs, type RoundSample } from './reads.js';

const REFRESHES = 1440;
const SPACING_MS = 30 * 60_000;
/**
 * Connections of every round (both kinds). Not the read matrix's 20: twenty history misses at
 * once queue ~20 x 10 ms of building on the event loop, and a Redis reply waiting behind them
 * passes the API's 500 ms command deadline (a 503, 5 of 2,000 on a loaded two-core machine).
 * The figure is CPU per request, which does not depend on it.
 */
const CONNECTIONS = 8;
/** Requests per round in the full run (quick: settings.amount). */
const FULL_AMOUNT = 2000;

/**
 * The most a distinct-key read may cost, as a multiple of the cached read's CPU (docs/decisions.md#d13).
 * An empty page (a token no post mentions, past the end) is never kept and costs what a cached
 * page does (<= 1.5x); a page of another size or a past `?at=` snapshot is one page's
 * serialisation and compression (<= 8x, <= 3x). A client-chosen history range reads at most
 * 1,000 entries (COUNT) and buckets, serialises and compresses up to 1,000 points, against a
 * cached answer that is one buffer write: a bound (~8 ms a miss), not a cheap read (<= 300x).
 */
export const BUSTING_TARGETS: Record<BustingStreamName, number> = {
  'token history': 300,
  'news page': 8,
  'news token': 1.5,
  'news past end': 1.5,
  'trending ?at=': 3,
};

export interface CacheBustingOutcome {
  requestsPerRound: number;
  refreshes: number;
  streams: Record<BustingStreamName, { cachedPath: string; examplePath: string; cached: RoundSample[]; distinct: RoundSample[] }>;
}

export async function measureCacheBusting(
  stack: Stack,
  api: AppProcess,
  load: LoadGenerator,
  settings: Settings,
  log: (line: string) => void,
): Promise<CacheBustingOutcome> {
  const redis = new Redis(stack.redis.url, { protocol: 2 });
  const raw = await redis.get(snapshotKeys.snapshot('trending'));
  const token = (JSON.parse(raw ?? '{"data":[]}') as Snapshot<TrendingToken[]>).data[0]?.token;
  if (!token) throw new Error('cache-busting: no trending token');
  await backfillTrendingHistory(redis, token, REFRESHES, SPACING_MS);
  redis.disconnect();
  const streams = bustingStreams(token, Date.now(), REFRESHES, SPACING_MS);
  const amount = settings.amount ?? FULL_AMOUNT;
  const outcome: CacheBustingOutcome = {
    requestsPerRound: amount,
    refreshes: REFRESHES,
    streams: {} as CacheBustingOutcome['streams'],
  };
  const headers = { 'Accept-Encoding': 'br' };
  for (const name of BUSTING_STREAMS) {
    const stream = streams[name];
    const result = {
      cachedPath: stream.cached,
      examplePath: stream.distinct(1),
      cached: [] as RoundSample[],
      distinct: [] as RoundSample[],
    };
    outcome.streams[name] = result;
    await expectStatus(`${api.url}${stream.cached}`, 200, headers);
    let next = 1;
    const round = async (kind: 'cached' | 'distinct', length = amount) => {
      const paths = Array.from({ length }, () => (kind === 'cached' ? stream.cached : stream.distinct(next++)));
      const { value, server } = await watchServer(
        api.proc.pid,
        Promise.race([api.proc.died, load.run({ url: api.url, connections: CONNECTIONS, durationSec: 0, amount: length, headers, paths })]),
        [load],
      );
      assertClean(`cache-busting ${name} ${kind}`, value, 200);
      return { load: value, server };
    };
    // The full run: an unrecorded round of each first (JIT of the miss path too).
    if (!settings.quick) for (const kind of ['cached', 'distinct'] as const) await round(kind, 200);
    for (let rep = 0; rep < settings.reps; rep += 1) {
      for (const kind of rep % 2 === 0 ? (['cached', 'distinct'] as const) : (['distinct', 'cached'] as const)) {
        result[kind].push(await round(kind));
      }
    }
    const us = (list: RoundSample[]) => medianInterval(list.map(cpuUs)).median.toFixed(0);
    log(`cache-busting ${name.padEnd(14)} distinct ${us(result.distinct).padStart(6)} µs CPU/req, cached ${us(result.cached).padStart(5)}`);
  }
  return outcome;
}

/** One verdict per stream on the paired ratio distinct/cached of the API's CPU per request. */
export function judgeCacheBusting(outcome: CacheBustingOutcome): Verdict[] {
  return BUSTING_STREAMS.map((name) => {
    const { cached, distinct, examplePath } = outcome.streams[name];
    const ratio = medianInterval(pairedRatios(distinct.map(cpuUs), cached.map(cpuUs)));
    const us = (list: RoundSample[]) => medianInterval(list.map(cpuUs)).median.toFixed(0);
    return {
      target: `cache-busting ${name} (${outcome.requestsPerRound} distinct keys like ${examplePath} vs as many cached reads): API CPU/req <= ${BUSTING_TARGETS[name]}x cached`,
      measured: `${us(distinct)} vs ${us(cached)} µs/req: ${formatInterval(ratio)}x over ${ratio.n} reps`,
      verdict: decide(ratio, { atMost: BUSTING_TARGETS[name] }),
    };
  });
}
