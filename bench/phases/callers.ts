/**
 * Callers (issue 48): what recording calls and breakouts costs the worker per refresh, what their
 * records cost Redis over 30 days, and what the API's first read after a refresh costs (the
 * incremental load of the day lists and the join), at `accounts` tracked accounts (default 1,000)
 * posting 10 times a day about 200 tickers (Zipf-like). In this process, over the bench stack's
 * Redis with `--only=callers` (then the API's two reads are measured against cached trending on
 * those records: against-trending.ts), else a private redis-server. `npm run bench -- --only=callers`.
 */
import { recordCalls, recordTokenBreakouts } from '../../apps/worker/src/callers/record-calls.js';
import { startTestRedis, type TestRedis } from '../../dev/redis-server.js';
import type { Redis } from 'ioredis';
import { DEFAULT_CALLERS } from '../../shared/callers/callers-config.js';
import { breakoutsOf, knownAt, leaderboard, WINDOW_MS } from '../../shared/callers/figures.js';
import { CallersRecords } from '../../shared/callers/records-reader.js';
import { DAY_MS, HOUR_MS } from '../../shared/durations.js';
import type { NewsItem, TrendingToken } from '../../shared/market-types.js';
import { createRedis } from '../../shared/redis.js';

export interface CallersOutcome {
  accounts: number;
  posts: number;
  calls: number;
  breakouts: number;
  redisBytes: number;
  bytesPerAccountDay: number;
  refresh: { cpuMs: number; wallMs: number };
  firstRead: { cpuMs: number; wallMs: number };
  cachedReadUs: number;
}

const STEP = 30 * 60_000;
const NEWS_WINDOW = 72 * HOUR_MS;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** A ticker of the rotating top whose breakouts and first callers the token read asks for. */
export const CALLERS_BENCH_TOKEN = 'TK8';

/**
 * On the Redis at `redisUrl` (the bench stack's, whose API then serves the records: its own
 * `{callers}` keys from the stack's first refreshes are dropped first), or on a private one.
 */
export async function measureCallers(log: (line: string) => void, redisUrl?: string, accounts = 1000): Promise<CallersOutcome> {
  const server = redisUrl === undefined ? await startTestRedis() : undefined;
  const redis = createRedis({ redisUrl: redisUrl ?? (server as TestRedis).url, redisTlsInsecure: false }, 'worker', 'bench-callers');
  try {
    const seeded = await callersKeysIn(redis);
    if (seeded.length > 0) await redis.del(...seeded);
    let state = 42;
    const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const tickers = Array.from({ length: 200 }, (_, i) => `TK${i}`);
    const ticker = () => tickers[Math.min(199, Math.floor(200 * random() ** 3))]!;
    const end = Math.floor(Date.now() / STEP) * STEP;
    const start = end - 30 * DAY_MS;
    const spacing = DAY_MS / (accounts * 10);
    const posts: NewsItem[] = [];
    for (let at = start - NEWS_WINDOW, n = 0; at < end; at += spacing, n++) {
      const tokens = [ticker(), ...(random() < 0.3 ? [ticker()] : [])];
      posts.push({
        id: `p${n}`,
        text: `${tokens.map((t) => `$${t}`).join(' ')} looking strong, adding more`,
        author: `account${Math.floor(random() * accounts)}`,
        authorFollowers: 10_000,
        publishedAt: new Date(at).toISOString(),
        tokens,
        engagementScore: 1,
      });
    }
    // The top 10: seven steady tickers and three rotating every 8 h among the rest (new breakouts).
    const top = (atMs: number): TrendingToken[] =>
      [...tickers.slice(0, 7), ...[0, 1, 2].map((i) => tickers[7 + ((Math.floor(atMs / (8 * HOUR_MS)) * 3 + i) % 193)]!)].map((token) => ({
        token,
        name: token,
        mentions: 1,
        smartMoneyMentions: 1,
        priceChange24h: 0,
      }));
    const publishedMs = posts.map((post) => Date.parse(post.publishedAt));
    const between = (from: number, to: number) => posts.filter((_, i) => publishedMs[i]! > from && publishedMs[i]! <= to);
    log(`callers: ${accounts} accounts, ${posts.length} posts over 30 days and the 72 h before; filling refresh by refresh`);
    // 30 days of refreshes, each given its new posts (a refresh's older ones add nothing: the filter drops them).
    await recordCalls(redis, between(start - NEWS_WINDOW - 1, start), start, DEFAULT_CALLERS);
    for (let at = start + STEP; at < end - STEP; at += STEP) {
      await recordTokenBreakouts(redis, top(at), at, DEFAULT_CALLERS);
      await recordCalls(redis, between(at - STEP, at), at, DEFAULT_CALLERS);
    }
    const keys = await callersKeysIn(redis);
    const sizes = await Promise.all(keys.map((key) => redis.memory('USAGE', key)));
    const redisBytes = sizes.reduce<number>((sum, size) => sum + (Number(size) || 0), 0);

    // One steady-state refresh: the 72 h a news refresh sees (its last 30 min new) and a trending refresh, the median of 5.
    const refreshes: { cpuMs: number; wallMs: number }[] = [];
    for (let i = 0; i < 5; i++) {
      const at = end - STEP + i * 60_000;
      const window = between(at - NEWS_WINDOW, at);
      const cpu = process.cpuUsage();
      const wall = performance.now();
      await recordTokenBreakouts(redis, top(at), at, DEFAULT_CALLERS);
      await recordCalls(redis, window, at, DEFAULT_CALLERS);
      const used = process.cpuUsage(cpu);
      refreshes.push({ cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall });
    }
    // The API: the records loaded (the first read after start), then once per refresh (incremental) with the join and a leaderboard.
    const reader = new CallersRecords(redis, DEFAULT_CALLERS.horizonMs);
    await reader.load(end);
    const reads: { cpuMs: number; wallMs: number }[] = [];
    for (let i = 0; i < 5; i++) {
      const cpu = process.cpuUsage();
      const wall = performance.now();
      const { calls, breakouts } = await reader.load(end + i);
      const known = knownAt(calls, breakouts, end + i, DEFAULT_CALLERS.horizonMs);
      leaderboard(known, WINDOW_MS['30d'], 'hitRate', 3);
      breakoutsOf(known, 'token', CALLERS_BENCH_TOKEN, WINDOW_MS['30d']);
      const used = process.cpuUsage(cpu);
      reads.push({ cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall });
    }
    const { calls, breakouts } = await reader.load(end);
    // A cached read: the answer prepared for the refresh, looked up (what the fast path does before writing it).
    const prepared = new Map([['board|30d|hitRate|3', Buffer.from('{}')]]);
    const t = performance.now();
    for (let i = 0; i < 100_000; i++) prepared.get('board|30d|hitRate|3');
    const outcome: CallersOutcome = {
      accounts,
      posts: posts.length,
      calls: calls.length,
      breakouts: breakouts.length,
      redisBytes,
      bytesPerAccountDay: Math.round(redisBytes / accounts / 30),
      refresh: { cpuMs: median(refreshes.map((r) => r.cpuMs)), wallMs: median(refreshes.map((r) => r.wallMs)) },
      firstRead: { cpuMs: median(reads.map((r) => r.cpuMs)), wallMs: median(reads.map((r) => r.wallMs)) },
      cachedReadUs: ((performance.now() - t) * 1000) / 100_000,
    };
    return outcome;
  } finally {
    redis.disconnect();
    await server?.stop();
  }
}

async function callersKeysIn(redis: Redis): Promise<string[]> {
  const keys: string[] = [];
  for (let cursor = '0'; ;) {
    const [next, found] = await redis.scan(cursor, 'MATCH', '*{callers}*', 'COUNT', 1000);
    keys.push(...found);
    if ((cursor = next) === '0') return keys;
  }
}

export function judgeCallers(outcome: CallersOutcome): string[] {
  const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  return [
    `callers: ${outcome.accounts} accounts, ${outcome.posts} posts: ${outcome.calls} calls and ${outcome.breakouts} breakouts held`,
    `callers: Redis ${mb(outcome.redisBytes)} MB for 30 days (${outcome.bytesPerAccountDay} bytes per account and day)`,
    `callers: per refresh (72 h of posts seen, 30 min new; a trending list) worker CPU ${outcome.refresh.cpuMs.toFixed(0)} ms, wall ${outcome.refresh.wallMs.toFixed(0)} ms`,
    `callers: API, first read after a refresh (new records read, join, leaderboard, a token's breakouts) CPU ${outcome.firstRead.cpuMs.toFixed(0)} ms, wall ${outcome.firstRead.wallMs.toFixed(0)} ms; every other read until the next refresh: the prepared answer (${outcome.cachedReadUs.toFixed(2)} µs lookup)`,
  ];
}
