/**
 * Issue 49: GET /api/export over 30 days of history at 1,000 tracked accounts, against the API
 * process's RSS, with cached trending reads measured alone and while the export streams (their
 * rate's ratio, target >= 0.85: the export is paced, apps/api/src/market/export-pacing.ts).
 * The history: every 30 minutes a news event with the posts 1,000 accounts make at 10 a day (~208)
 * and a sentiment event with the records of the tickers they named (of 200, Zipf-like); the
 * trending, trending-cas and mindshare events repeat the stack's newest (their size does not grow
 * with the accounts). The export must stream: its RSS growth stays under 50 MB.
 */
import { loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { EXPORT_KINDS } from '../../shared/history/export-states.js';
import { newsEntries } from '../../shared/history/refresh-entries.js';
import type { NewsItem, SentimentRecord } from '../../shared/market-types.js';
import { historyKeys, snapshotKeys } from '../../shared/snapshot-keys.js';
import { labelFor } from '../../apps/worker/src/sentiment/aggregate.js';
import { rssOf } from '../lib/processes.js';
import { BENCH_USER, type AppProcess, type Stack } from '../lib/stack.js';

const REFRESHES = 1440;
const SPACING_MS = 30 * 60_000;
const ACCOUNTS = 1000;
const POSTS_PER_ACCOUNT_DAY = 10;
const TICKERS = 200;
/** Reads during the export: counted only while it streams. */
const READS = 2000;
const READ_CONNECTIONS = 8;
export const EXPORT_RSS_LIMIT_BYTES = 50 * 1024 * 1024;
export const EXPORT_READS_RATIO_TARGET = 0.85;

export interface ExportOutcome {
  accounts: number;
  refreshes: number;
  lines: number;
  bytes: number;
  seconds: number;
  rssBeforeBytes: number;
  rssPeakBytes: number;
  readsPerSecondAlone: number;
  readsPerSecondDuring: number;
  /** Whether the reads "during" all ran before the export ended. */
  readsWithinExport: boolean;
  loadAverage: number[];
}

/** The trending, trending-cas and mindshare events streams made `REFRESHES` entries long, ending at their newest (its fields repeated). */
async function repeatNewest(redis: Redis, kind: (typeof EXPORT_KINDS)[number], lastMs: number): Promise<void> {
  const key = historyKeys.events(kind);
  const newest = (await redis.xrevrange(key, '+', '-', 'COUNT', 1)) as [string, string[]][];
  const fields = newest[0]?.[1];
  if (!fields) throw new Error(`export bench: no ${kind} event to repeat`);
  const batch = redis.pipeline().del(key);
  for (let back = REFRESHES - 1; back >= 0; back -= 1) batch.xadd(key, `${lastMs - back * SPACING_MS}-0`, ...fields);
  await batch.exec();
}

/** 30 days of news and sentiment events at ACCOUNTS accounts, a day's refreshes per pipeline. */
async function seedAccountsHistory(redis: Redis, lastMs: number): Promise<void> {
  const raw = await redis.get(snapshotKeys.snapshot('sentiment'));
  const template = Object.values((JSON.parse(raw ?? '{"data":{}}') as { data: Record<string, SentimentRecord> }).data)[0];
  if (!template) throw new Error('export bench: no sentiment record to model the seeded ones on');
  let state = 49;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const ticker = () => `TK${Math.min(TICKERS - 1, Math.floor(TICKERS * random() ** 3))}`;
  const perRefresh = (ACCOUNTS * POSTS_PER_ACCOUNT_DAY * SPACING_MS) / 86_400_000;
  await redis.del(historyKeys.events('news'), historyKeys.events('sentiment'));
  let batch = redis.pipeline();
  let postId = 0;
  for (let back = REFRESHES - 1; back >= 0; back -= 1) {
    const atMs = lastMs - back * SPACING_MS;
    const cachedAt = new Date(atMs).toISOString();
    const posts: NewsItem[] = Array.from({ length: Math.round(perRefresh * (0.8 + 0.4 * random())) }, () => {
      const tokens = [ticker(), ...(random() < 0.3 ? [ticker()] : [])];
      postId += 1;
      return {
        id: `${1_800_000_000_000_000_000n + BigInt(postId)}`,
        text: `${tokens.map((t) => `$${t}`).join(' ')} looking strong into the close, adding more on every dip; volume is picking up across the board (${postId})`,
        author: `account${Math.floor(random() * ACCOUNTS)}`,
        authorFollowers: 1000 + Math.floor(random() * 500_000),
        publishedAt: new Date(atMs - Math.floor(random() * SPACING_MS)).toISOString(),
        tokens,
        engagementScore: Math.round(random() * 10_000) / 100,
      };
    });
    const sentiment: Record<string, SentimentRecord> = {};
    for (const token of new Set(posts.flatMap((post) => post.tokens))) {
      const score = Math.round((random() * 2 - 1) * 10_000) / 10_000;
      sentiment[token] = { ...template, token, score, label: labelFor(score), mentions: 1 + Math.floor(random() * 40), cachedAt };
    }
    const entries = newsEntries({ cachedAt, posts, sentiment, previousIds: new Set(), previousSentiment: undefined });
    for (const entry of entries.slice(0, 2)) batch.xadd(entry.key, `${atMs}-0`, ...entry.fields);
    if (back % 48 === 0) {
      await batch.exec();
      batch = redis.pipeline();
    }
  }
  await batch.exec();
}

/** Each kind's events stream made REFRESHES entries long, SPACING_MS apart, ending at the stack's newest refresh. */
async function backfillEvents(redis: Redis): Promise<void> {
  const newest = (await redis.xrevrange(historyKeys.events('trending'), '+', '-', 'COUNT', 1)) as [string, string[]][];
  const lastMs = Number(newest[0]?.[0].split('-')[0]);
  if (!Number.isFinite(lastMs)) throw new Error('export bench: no trending event');
  for (const kind of ['trending', 'trending-cas', 'mindshare'] as const) await repeatNewest(redis, kind, lastMs);
  await seedAccountsHistory(redis, lastMs);
}

/** `count` cached trending reads over a few connections: reads per second. */
async function readRate(url: string, count: number): Promise<number> {
  const started = performance.now();
  let left = count;
  await Promise.all(
    Array.from({ length: READ_CONNECTIONS }, async () => {
      while (left-- > 0) {
        const res = await fetch(`${url}/api/market/trending`);
        if (res.status !== 200) throw new Error(`export bench: trending answered ${res.status}`);
        await res.arrayBuffer();
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

export async function measureExport(stack: Stack, api: AppProcess, log: (line: string) => void): Promise<ExportOutcome> {
  const redis = new Redis(stack.redis.url, { protocol: 2 });
  await backfillEvents(redis);
  redis.disconnect();
  log(`export: ${EXPORT_KINDS.length} kinds x ${REFRESHES} refreshes of history, news and sentiment of ${ACCOUNTS} accounts`);
  const login = await fetch(`${api.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(BENCH_USER),
  });
  const { token } = (await login.json()) as { token: string };
  const aloneBefore = await readRate(api.url, READS);
  const rssBeforeBytes = rssOf(api.proc.pid ?? 0);
  let rssPeakBytes = rssBeforeBytes;
  const sampler = setInterval(() => (rssPeakBytes = Math.max(rssPeakBytes, rssOf(api.proc.pid ?? 0))), 50);
  const started = performance.now();
  const from = new Date(Date.now() - 31 * 86_400_000).toISOString();
  let exportEnded = false;
  let streaming: () => void = () => undefined;
  const firstByte = new Promise<void>((resolve) => (streaming = resolve));
  const exporting = (async () => {
    const res = await fetch(`${api.url}/api/export?from=${from}`, { headers: { Authorization: `Bearer ${token}` } });
    if (res.status !== 200 || !res.body) throw new Error(`export bench: export answered ${res.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      streaming();
      bytes += chunk.length;
      // indexOf, not a loop over every byte: this process also sends the reads measured meanwhile.
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
    }
    exportEnded = true;
    return { bytes, lines, seconds: (performance.now() - started) / 1000 };
  })();
  await Promise.race([firstByte, exporting]);
  const readsPerSecondDuring = await readRate(api.url, READS);
  const readsWithinExport = !exportEnded;
  const loadAverage = loadavg();
  const { bytes, lines, seconds } = await exporting;
  clearInterval(sampler);
  // Alone before and after: the machine's other load drifts over a run.
  const aloneAfter = await readRate(api.url, READS);
  log(`export: trending reads alone ${aloneBefore.toFixed(0)}/s before, ${aloneAfter.toFixed(0)}/s after`);
  return {
    accounts: ACCOUNTS,
    refreshes: REFRESHES,
    lines,
    bytes,
    seconds,
    rssBeforeBytes,
    rssPeakBytes,
    readsPerSecondAlone: (aloneBefore + aloneAfter) / 2,
    readsPerSecondDuring,
    readsWithinExport,
    loadAverage,
  };
}

export function judgeExport(outcome: ExportOutcome): string[] {
  const growth = outcome.rssPeakBytes - outcome.rssBeforeBytes;
  const ratio = outcome.readsPerSecondDuring / outcome.readsPerSecondAlone;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  return [
    `export: ${outcome.lines} lines, ${mb(outcome.bytes)} MB in ${outcome.seconds.toFixed(1)} s (${outcome.accounts} accounts, ${outcome.refreshes} refreshes)`,
    `${growth < EXPORT_RSS_LIMIT_BYTES ? 'met' : 'NOT met'}: API RSS growth < 50 MB during a 30-day export: ${mb(growth)} MB (${mb(outcome.rssBeforeBytes)} -> ${mb(outcome.rssPeakBytes)} MB)`,
    `${ratio >= EXPORT_READS_RATIO_TARGET ? 'met' : 'NOT met'}: cached trending reads during the export >= ${EXPORT_READS_RATIO_TARGET}x alone: ` +
      `${outcome.readsPerSecondAlone.toFixed(0)}/s alone, ${outcome.readsPerSecondDuring.toFixed(0)}/s during (ratio ${ratio.toFixed(2)})` +
      (outcome.readsWithinExport ? '' : ' INCONCLUSIVE: the export ended before the reads did'),
    `load average during the export: ${outcome.loadAverage.map((load) => load.toFixed(2)).join(', ')} (other processes share the machine)`,
  ];
}
