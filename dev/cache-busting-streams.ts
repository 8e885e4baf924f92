/**
 * Issue 38 item 6's streams, shared by dev/cache-busting.ts and the bench's cache-busting phase (bench/ imports dev/, never the other way):
 * for each read whose key a client chooses, one cached path and a generator of distinct keys
 * (each a miss), and the history they need (the newest trending refresh copied back in time).
 */
import type { Redis } from 'ioredis';
import { historyKeys } from '../shared/snapshot-keys.js';

export interface BustingStream {
  /** The same route's usual read, answered from the cache after the first. */
  cached: string;
  /** The n-th distinct key (n from 1); distinct n give distinct keys. */
  distinct(n: number): string;
}

export const BUSTING_STREAMS = ['token history', 'news page', 'news token', 'news past end', 'trending ?at='] as const;
export type BustingStreamName = (typeof BUSTING_STREAMS)[number];

/**
 * `token` is on the trending list; `nowMs` just after its newest refresh; `refreshes` of it,
 * `spacingMs` apart, are in its history (backfillTrendingHistory).
 */
export function bustingStreams(
  token: string,
  nowMs: number,
  refreshes: number,
  spacingMs: number,
): Record<BustingStreamName, BustingStream> {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    'token history': {
      cached: `/api/market/tokens/${token}/history?interval=30m`,
      distinct: (n) => `/api/market/tokens/${token}/history?interval=30m&from=${iso(nowMs - 30 * 86_400_000 + n * 1000)}`,
    },
    'news page': {
      cached: '/api/market/news?page=1&limit=20',
      distinct: (n) => `/api/market/news?page=${1 + (n % 50)}&limit=${1 + (n % 49)}`,
    },
    'news token': { cached: `/api/market/news?token=${token}`, distinct: (n) => `/api/market/news?token=ZZ${n}` },
    'news past end': { cached: '/api/market/news?page=1&limit=20', distinct: (n) => `/api/market/news?page=${1000 + n}` },
    'trending ?at=': {
      cached: `/api/market/trending?at=${iso(nowMs)}`,
      distinct: (n) => `/api/market/trending?at=${iso(nowMs - (n % (refreshes - 1)) * spacingMs)}`,
    },
  };
}

/**
 * Makes `token`'s and the trending list's history `refreshes` long, `spacingMs` apart, by copying
 * the newest entry of each key back in time (the same fields and sizes as a real refresh's).
 */
export async function backfillTrendingHistory(redis: Redis, token: string, refreshes: number, spacingMs: number): Promise<void> {
  for (const key of [historyKeys.token(token), historyKeys.trendingTimes(), historyKeys.events('trending')]) {
    const [[id, fields]] = (await redis.xrevrange(key, '+', '-', 'COUNT', 1)) as [[string, string[]]];
    const lastMs = Number(id.split('-')[0]);
    const batch = redis.pipeline().del(key);
    for (let back = refreshes - 1; back >= 1; back -= 1) batch.xadd(key, `${lastMs - back * spacingMs}-0`, ...fields);
    await batch.xadd(key, id, ...fields).exec();
  }
}
