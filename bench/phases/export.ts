/**
 * Issue 49: GET /api/export over 30 days of history (every kind's events stream made 1,440
 * refreshes long), against the API process's RSS, with cached trending reads measured alone and
 * during the export (their rate's ratio). The export must stream: its RSS growth stays under 50 MB.
 */
import { Redis } from 'ioredis';
import { EXPORT_KINDS } from '../../shared/history/export-states.js';
import { historyKeys } from '../../shared/snapshot-keys.js';
import { rssOf } from '../lib/processes.js';
import { BENCH_USER, type AppProcess, type Stack } from '../lib/stack.js';

const REFRESHES = 1440;
const SPACING_MS = 30 * 60_000;
const READS = 2000;
const READ_CONNECTIONS = 8;
export const EXPORT_RSS_LIMIT_BYTES = 50 * 1024 * 1024;

export interface ExportOutcome {
  refreshes: number;
  lines: number;
  bytes: number;
  seconds: number;
  rssBeforeBytes: number;
  rssPeakBytes: number;
  readsPerSecondAlone: number;
  readsPerSecondDuring: number;
}

/** Each kind's events stream made `refreshes` entries long, `spacingMs` apart, ending at its newest (its fields repeated). */
async function backfillEvents(redis: Redis): Promise<void> {
  for (const kind of EXPORT_KINDS) {
    const key = historyKeys.events(kind);
    const newest = (await redis.xrevrange(key, '+', '-', 'COUNT', 1)) as [string, string[]][];
    const [id, fields] = newest[0] ?? [];
    if (!id || !fields) throw new Error(`export bench: no ${kind} event to repeat`);
    const lastMs = Number(id.split('-')[0]);
    const batch = redis.pipeline().del(key);
    for (let back = REFRESHES - 1; back >= 0; back -= 1) batch.xadd(key, `${lastMs - back * SPACING_MS}-0`, ...fields);
    await batch.exec();
  }
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
  log(`export: ${EXPORT_KINDS.length} kinds x ${REFRESHES} refreshes of history`);
  const login = await fetch(`${api.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(BENCH_USER),
  });
  const { token } = (await login.json()) as { token: string };
  const readsPerSecondAlone = await readRate(api.url, READS);
  const rssBeforeBytes = rssOf(api.proc.pid ?? 0);
  let rssPeakBytes = rssBeforeBytes;
  const sampler = setInterval(() => (rssPeakBytes = Math.max(rssPeakBytes, rssOf(api.proc.pid ?? 0))), 50);
  const started = performance.now();
  const from = new Date(Date.now() - 31 * 86_400_000).toISOString();
  const exporting = (async () => {
    const res = await fetch(`${api.url}/api/export?from=${from}`, { headers: { Authorization: `Bearer ${token}` } });
    if (res.status !== 200 || !res.body) throw new Error(`export bench: export answered ${res.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    return { bytes, lines, seconds: (performance.now() - started) / 1000 };
  })();
  const readsPerSecondDuring = await readRate(api.url, READS);
  const { bytes, lines, seconds } = await exporting;
  clearInterval(sampler);
  return { refreshes: REFRESHES, lines, bytes, seconds, rssBeforeBytes, rssPeakBytes, readsPerSecondAlone, readsPerSecondDuring };
}

export function judgeExport(outcome: ExportOutcome): string[] {
  const growth = outcome.rssPeakBytes - outcome.rssBeforeBytes;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  return [
    `export: ${outcome.lines} lines, ${mb(outcome.bytes)} MB in ${outcome.seconds.toFixed(1)} s`,
    `${growth < EXPORT_RSS_LIMIT_BYTES ? 'met' : 'NOT met'}: API RSS growth < 50 MB during a 30-day export: ${mb(growth)} MB (${mb(outcome.rssBeforeBytes)} -> ${mb(outcome.rssPeakBytes)} MB)`,
    `cached trending reads: ${outcome.readsPerSecondAlone.toFixed(0)}/s alone, ${outcome.readsPerSecondDuring.toFixed(0)}/s during the export (ratio ${(outcome.readsPerSecondDuring / outcome.readsPerSecondAlone).toFixed(2)})`,
  ];
}
