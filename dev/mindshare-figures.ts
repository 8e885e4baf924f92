/**
 * `npx tsx dev/mindshare-figures.ts [accounts] [postsPerDay]`: what mindshare (docs/decisions.md#d20)
 * costs at scale. A private redis-server; 30 days of posts from `accounts` tracked accounts
 * (default 1,000) posting `postsPerDay` times a day each (default 10), each naming one to three of
 * 200 tickers (Zipf-like); counted hour by hour as the news refreshes would. Prints:
 * - the Redis memory of the buckets (48 h of hours, 30 days of days) and seen sets after 30 days
 *   (MEMORY USAGE of every key);
 * - one steady-state refresh's added cost: the 72 h of posts a refresh sees (all but the last
 *   30 minutes already counted), counted and the four windows' lists built: the worker's CPU,
 *   the Redis commands (INFO commandstats: those the counting script runs included, then per
 *   command) and Redis's own CPU, the median of 5.
 * Run it before and after a change to the counting, in the same minute: the machine's load moves.
 */
import { countMentions, mindshareLists, readBuckets } from '../apps/worker/src/mindshare/mindshare-counts.js';
import { newsScorer } from '../apps/worker/src/jobs/refresh-news.js';
import type { NewsItem } from '../shared/market-types.js';
import { createRedis } from '../shared/redis.js';
import { startTestRedis } from './redis-server.js';

const accounts = Number(process.argv[2] ?? 1000);
const postsPerDay = Number(process.argv[3] ?? 10);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RETENTION = 30 * DAY;
const NEWS_WINDOW = 72 * HOUR;

const server = await startTestRedis();
const redis = createRedis({ redisUrl: server.url, redisTlsInsecure: false }, 'worker', 'mindshare-figures');
const score = newsScorer();

// Deterministic pseudo-random numbers (a fixed LCG), so two runs count the same posts.
let state = 42;
const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const TICKERS = Array.from({ length: 200 }, (_, i) => `TK${i}`);
const ticker = () => TICKERS[Math.min(TICKERS.length - 1, Math.floor(TICKERS.length * random() ** 3))]!;

const now = Date.now();
const start = now - RETENTION;
const spacing = DAY / (accounts * postsPerDay);
const posts: NewsItem[] = [];
for (let at = start, n = 0; at < now; at += spacing, n++) {
  const tokens = [ticker(), ...(random() < 0.3 ? [ticker()] : []), ...(random() < 0.1 ? [ticker()] : [])];
  posts.push({
    id: String(1_900_000_000_000_000_000n + BigInt(n)),
    text: `${tokens.map((t) => `$${t}`).join(' ')} looking strong, adding more`,
    author: `account${Math.floor(random() * accounts)}`,
    authorFollowers: 10_000,
    publishedAt: new Date(at).toISOString(),
    tokens,
    engagementScore: Math.round(random() * 1000) / 10,
  });
}
process.stdout.write(`${accounts} accounts x ${postsPerDay} posts a day: ${posts.length} posts over 30 days\n`);

// Hour by hour, as refreshes would first see them (each refresh then sees them again: counted once).
const refreshAt = now - 30 * 60_000;
for (let hour = start; hour < refreshAt; hour += HOUR) {
  const end = Math.min(hour + HOUR, refreshAt);
  await countMentions(
    redis,
    posts.filter((p) => {
      const t = Date.parse(p.publishedAt);
      return t >= hour && t < end;
    }),
    score,
    end,
    RETENTION,
  );
}

async function memory(): Promise<{ buckets: number; seen: number; keys: number }> {
  let buckets = 0;
  let seen = 0;
  const keys = await redis.keys('ms:{mindshare}:*');
  for (const key of keys) {
    const bytes = Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
    if (key.includes(':seen:')) seen += bytes;
    else buckets += bytes;
  }
  return { buckets, seen, keys: keys.length };
}

async function commandStats(): Promise<{ calls: number; cpuMs: number; byCommand: Map<string, number> }> {
  const info = await redis.info('commandstats');
  const byCommand = new Map([...info.matchAll(/cmdstat_(\S+):calls=(\d+)/g)].map((match) => [match[1]!, Number(match[2])]));
  const calls = [...byCommand.values()].reduce((sum, n) => sum + n, 0);
  const cpu = await redis.info('cpu');
  const user = Number(/used_cpu_user:([\d.]+)/.exec(cpu)?.[1] ?? 0);
  const sys = Number(/used_cpu_sys:([\d.]+)/.exec(cpu)?.[1] ?? 0);
  return { calls, cpuMs: (user + sys) * 1000, byCommand };
}

// One steady-state refresh: the last 72 h of posts, of which the last 30 minutes are new.
const seenByRefresh = posts.filter((p) => Date.parse(p.publishedAt) >= now - NEWS_WINDOW);
for (const post of seenByRefresh) score(post.text, new Set(post.tokens)); // the sentiment records scored them first (memoized)
const runs: { cpuMs: number; commands: number; redisCpuMs: number; wallMs: number; counted: number; byCommand: string }[] = [];
for (let run = 0; run < 5; run++) {
  if (run > 0) {
    // Forget the last 30 minutes' posts so each run counts them anew: the same work every run.
    const fresh = seenByRefresh.filter((p) => Date.parse(p.publishedAt) >= refreshAt);
    for (const post of fresh) await redis.srem(`ms:{mindshare}:seen:${Math.floor(Date.parse(post.publishedAt) / HOUR) * HOUR}`, post.id);
  }
  const before = await commandStats();
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const { counted } = await countMentions(redis, seenByRefresh, score, now, RETENTION);
  const lists = mindshareLists(await readBuckets(redis, now, RETENTION), now);
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - wall;
  const after = await commandStats();
  if (lists['24h'].length === 0) throw new Error('no list');
  // commandstats counts our INFO calls too: 2 per sample (commandstats and cpu) before this run's reads.
  runs.push({
    cpuMs: (used.user + used.system) / 1000,
    commands: after.calls - before.calls - 2,
    redisCpuMs: after.cpuMs - before.cpuMs,
    wallMs,
    counted,
    byCommand: [...after.byCommand]
      .map(([name, calls]) => [name, calls - (before.byCommand.get(name) ?? 0) - (name === 'info' ? 2 : 0)] as const)
      .filter(([, calls]) => calls > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([name, calls]) => `${name} ${calls}`)
      .join(', '),
  });
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
const { buckets, seen, keys } = await memory();
process.stdout.write(
  `memory after 30 days: buckets ${mb(buckets)}, seen sets ${mb(seen)} (73 h), ${keys} keys\n` +
    `one refresh (${seenByRefresh.length} posts seen, ${runs[0]!.counted} new; median of 5): worker CPU ${median(runs.map((r) => r.cpuMs)).toFixed(0)} ms, ` +
    `${median(runs.map((r) => r.commands))} Redis commands, Redis CPU ${median(runs.map((r) => r.redisCpuMs)).toFixed(0)} ms, ` +
    `wall ${median(runs.map((r) => r.wallMs)).toFixed(0)} ms\n` +
    `its commands (last run): ${runs.at(-1)!.byCommand}\n`,
);
await redis.quit();
await server.stop();
