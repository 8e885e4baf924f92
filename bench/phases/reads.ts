/**
 * The read matrix: for every measured read, (a) raw node:http and (b) bare Koa serving the
 * bytes the API returned, (c) the naive design where it applies, and (d) the API itself, in
 * interleaved rounds (every second repetition in reverse order, so drift cancels out). The
 * rounds of one read follow each other, so each repetition gives one paired ratio per target.
 * Then every read again at equal offered load (open loop), (b) and (d) alternating, for p99.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import type { SentimentRecord, Snapshot } from '../../shared/market-types.js';
import type { CapturedBody } from '../targets/bodies.js';
import { naivePageKey } from '../targets/naive-keys.js';
import { expectStatus } from '../lib/http.js';
import { assertClean, watchServer, type LoadGenerator } from '../lib/load.js';
import { roundLength, type Settings } from '../lib/settings.js';
import { allCores, pin } from '../lib/processes.js';
import { startTarget, type AppProcess, type Stack } from '../lib/stack.js';
import type { LoadResult, ServerSide } from '../lib/types.js';

/** (e) `baseline`: the API of another git revision (`--baseline`), when the run has one. */
export type ServerKind = 'raw' | 'koa' | 'naive' | 'api' | 'baseline';

export interface ReadRow {
  id: string;
  label: string;
  url: string;
  headers?: Record<string, string>;
  expect: 200 | 304;
  /** Measured against the naive design too. */
  naive: boolean;
  /** A keyed read: the id of the row that reads the same thing without a key (the keyed ÷ anonymous target). */
  anonymousOf?: string;
}

export interface RoundSample {
  load: LoadResult;
  server: ServerSide;
}

/** Server CPU per response in one round, µs. */
export function cpuUs(sample: RoundSample): number {
  return sample.load.responses > 0 ? (sample.server.cpuMs * 1000) / sample.load.responses : NaN;
}

/** The server's CPU plus Redis's per response, µs: what a read costs the machine's services. */
export function cpuWithRedisUs(sample: RoundSample): number {
  return sample.load.responses > 0 ? ((sample.server.cpuMs + (sample.server.redisCpuMs ?? 0)) * 1000) / sample.load.responses : NaN;
}

export interface ReadMeasurement {
  row: string;
  server: ServerKind;
  samples: RoundSample[];
}

/** Latency at the same offered load (open loop, below both servers' capacity): (b) against (d), per repetition. */
export interface EqualLoadMeasurement {
  row: string;
  rate: number;
  koa: RoundSample[];
  api: RoundSample[];
}

export interface ReadsOutcome {
  rows: ReadRow[];
  bodyBytes: Record<string, number>;
  measurements: ReadMeasurement[];
  equalLoad: EqualLoadMeasurement[];
  /** The servers ran pinned to the last core and the load generator to the others (taskset). */
  pinned: boolean;
}

/** The share of the slower server's lowest measured throughput offered to both at equal load. */
const EQUAL_LOAD_SHARE = 0.5;

const cores = (ms: number, wallMs: number) => (wallMs > 0 ? ms / wallMs : 0).toFixed(2);

/** The sentiment token with the most mentions: one that certainly exists. */
export async function busiestToken(redisUrl: string): Promise<string> {
  const redis = new Redis(redisUrl, { protocol: 2 });
  try {
    const raw = await redis.get(snapshotKeys.snapshot('sentiment'));
    if (!raw) throw new Error('no sentiment snapshot');
    const records = Object.values((JSON.parse(raw) as Snapshot<Record<string, SentimentRecord>>).data);
    const best = records.sort((x, y) => y.mentions - x.mentions)[0];
    if (!best) throw new Error('the sentiment snapshot is empty');
    return best.token;
  } finally {
    redis.disconnect();
  }
}

/** `--rows=trending,trending-key` measures only those rows of the matrix (a quicker before/after of one change). */
export async function readRows(stack: Stack, api: AppProcess, only?: readonly string[]): Promise<ReadRow[]> {
  const rows = await allReadRows(stack, api);
  if (!only) return rows;
  const unknown = only.filter((id) => !rows.some((row) => row.id === id));
  if (unknown.length > 0) throw new Error(`--rows: no read ${unknown.join(', ')} (the reads: ${rows.map((row) => row.id).join(', ')})`);
  return rows.filter((row) => only.includes(row.id));
}

async function allReadRows(stack: Stack, api: AppProcess): Promise<ReadRow[]> {
  const token = await busiestToken(stack.redis.url);
  const trending = await expectStatus(`${api.url}/api/market/trending`, 200);
  const etag = String(trending.headers.etag);
  return [
    { id: 'trending', label: 'trending', url: '/api/market/trending', expect: 200, naive: true },
    // Bots poll with keys (issue 29): the same read with the key in either header.
    {
      id: 'trending-key',
      label: 'trending, X-Api-Key',
      url: '/api/market/trending',
      headers: { 'X-Api-Key': stack.apiKey },
      expect: 200,
      naive: false,
      anonymousOf: 'trending',
    },
    {
      id: 'trending-bearer',
      label: 'trending, Bearer key',
      url: '/api/market/trending',
      headers: { Authorization: `Bearer ${stack.apiKey}` },
      expect: 200,
      naive: false,
      anonymousOf: 'trending',
    },
    { id: 'trending-cas', label: 'trending-cas', url: '/api/market/trending-cas', expect: 200, naive: false },
    { id: 'news-p1', label: 'news page 1 (limit 50)', url: '/api/market/news?page=1&limit=50', expect: 200, naive: true },
    { id: 'news-p100', label: 'news page 100 (limit 50)', url: '/api/market/news?page=100&limit=50', expect: 200, naive: false },
    {
      id: 'news-token',
      label: `news of ${token}, page 1 (limit 50)`,
      url: `/api/market/news?token=${token}&page=1&limit=50`,
      expect: 200,
      naive: false,
    },
    { id: 'stats', label: 'stats (hit)', url: `/api/market/stats/${stack.cachedUsername}`, expect: 200, naive: false },
    { id: 'sentiment', label: `sentiment (${token})`, url: `/api/market/sentiment/${token}`, expect: 200, naive: false },
    // Issue 37: a windowed list (BENCH_WINDOWS), the mindshare list and a token's mindshare over 7 days (per day).
    { id: 'trending-1h', label: 'trending, window=1h', url: '/api/market/trending?window=1h', expect: 200, naive: false },
    { id: 'mindshare', label: 'mindshare (24h)', url: '/api/market/mindshare', expect: 200, naive: false },
    {
      id: 'token-mindshare',
      label: `mindshare of ${token}, 7d by 1d`,
      url: `/api/market/tokens/${token}/mindshare?window=7d`,
      expect: 200,
      naive: false,
    },
    {
      id: 'etag-304',
      label: 'trending, ETag revalidation (304)',
      url: '/api/market/trending',
      headers: { 'If-None-Match': etag },
      expect: 304,
      naive: false,
    },
  ];
}

/** The API's exact bytes for each 200 row, checked to be what (a), (b) and (c) serve too. */
async function captureBodies(api: AppProcess, rows: ReadRow[]): Promise<CapturedBody[]> {
  const captured: CapturedBody[] = [];
  for (const row of rows.filter((r) => r.expect === 200)) {
    const response = await expectStatus(`${api.url}${row.url}`, 200);
    captured.push({ url: row.url, etag: String(response.headers.etag), body: response.body.toString('base64') });
  }
  return captured;
}

async function assertSameBytes(name: string, server: AppProcess, rows: ReadRow[], captured: CapturedBody[]): Promise<void> {
  for (const row of rows) {
    const expected = captured.find((c) => c.url === row.url);
    if (!expected) continue;
    const response = await expectStatus(`${server.url}${row.url}`, row.expect, row.headers);
    if (row.expect === 200 && !response.body.equals(Buffer.from(expected.body, 'base64'))) {
      throw new Error(`${name} does not serve the API's bytes for ${row.url}`);
    }
  }
}

export async function measureReads(
  stack: Stack,
  api: AppProcess,
  load: LoadGenerator,
  settings: Settings,
  workDir: string,
  log: (line: string) => void,
  baseline?: AppProcess,
  only?: readonly string[],
): Promise<ReadsOutcome> {
  const rows = await readRows(stack, api, only);
  const captured = await captureBodies(api, rows);
  const bodiesFile = join(workDir, 'bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(captured));
  const newsPage = captured.find((c) => c.url === '/api/market/news?page=1&limit=50');
  const seed = new Redis(stack.redis.url, { protocol: 2 });
  await seed.set(naivePageKey(1, 50), Buffer.from(newsPage?.body ?? '', 'base64'));
  seed.disconnect();

  const servers: Record<Exclude<ServerKind, 'baseline'>, AppProcess> & { baseline?: AppProcess } = {
    raw: await startTarget('raw-http', 'bench/targets/raw-http.ts', { bodiesFile, redisUrl: stack.redis.url }),
    koa: await startTarget('bare-koa', 'bench/targets/bare-koa.ts', { bodiesFile, redisUrl: stack.redis.url }),
    naive: await startTarget('naive-koa', 'bench/targets/naive-koa.ts', { bodiesFile, redisUrl: stack.redis.url }),
    api,
    ...(baseline ? { baseline } : {}),
  };
  // Each server on the last core, the load on the rest: cores that the scheduler hands back and
  // forth between a server and its load made the same build's ratios drift between runs.
  const serverCore = String(cpus().length - 1);
  const pinned =
    cpus().length >= 2 &&
    pin(load.pid, `0-${cpus().length - 2}`) &&
    Object.values(servers).every((server: AppProcess) => pin(server.proc.pid, serverCore));
  log(
    pinned
      ? `servers pinned to core ${serverCore}, the load generator to the others`
      : 'servers and load not pinned (one core, or no taskset)',
  );
  try {
    await assertSameBytes('raw-http', servers.raw, rows, captured);
    await assertSameBytes('bare-koa', servers.koa, rows, captured);
    await assertSameBytes(
      'naive-koa',
      servers.naive,
      rows.filter((r) => r.naive),
      captured,
    );

    // The API sits between (a) and (b), so both of its ratios pair rounds back to back.
    const plan: { row: ReadRow; server: ServerKind }[] = [];
    for (const row of rows) {
      for (const server of ['raw', 'api', 'baseline', 'koa', 'naive'] as const) {
        if ((server !== 'naive' || row.naive) && (server !== 'baseline' || baseline)) plan.push({ row, server });
      }
    }
    const redisPid = stack.redis.pid();
    const round = async (row: ReadRow, server: ServerKind, length: { durationSec: number; amount?: number; rate?: number }) => {
      const target = servers[server];
      if (!target) throw new Error(`no ${server} server in this run`);
      const { value, server: side } = await watchServer(
        target.proc.pid,
        Promise.race([
          target.proc.died,
          load.run({ url: `${target.url}${row.url}`, connections: settings.connections, headers: row.headers ?? {}, ...length }),
        ]),
        [load],
        redisPid,
      );
      assertClean(`${server} ${row.id}`, value, row.expect);
      return { load: value, server: side };
    };

    if (settings.warmupSec > 0) {
      log(`warming up ${plan.length} (server, read) pairs, ${settings.warmupSec} s each`);
      for (const { row, server } of plan) await round(row, server, { durationSec: settings.warmupSec });
    }
    const measurements = new Map<string, ReadMeasurement>();
    for (let rep = 0; rep < settings.reps; rep += 1) {
      for (const { row, server } of rep % 2 === 0 ? plan : [...plan].reverse()) {
        const sample = await round(row, server, roundLength(settings));
        const key = `${server}:${row.id}`;
        if (!measurements.has(key)) measurements.set(key, { row: row.id, server, samples: [] });
        measurements.get(key)?.samples.push(sample);
        const { cpuMs, loadCpuMs, otherCpuMs, wallMs } = sample.server;
        log(
          `rep ${rep + 1}/${settings.reps} ${server.padEnd(5)} ${row.id.padEnd(12)} ${sample.load.rps.toFixed(0).padStart(6)} req/s` +
            `  ${((cpuMs * 1000) / sample.load.responses).toFixed(1).padStart(6)} µs CPU/req` +
            `  p50 ${sample.load.p50.toFixed(2)} ms  p99 ${sample.load.p99.toFixed(2)} ms` +
            `  cores: server ${cores(cpuMs, wallMs)}, load ${cores(loadCpuMs, wallMs)}, other ${cores(otherCpuMs, wallMs)}`,
        );
      }
    }

    // Under saturation a closed loop's latency is connections / throughput (the CPU targets
    // already judge that) plus the scheduler's tail; at equal offered load it is the cost and
    // jitter of one request. Half the slower server's lowest measured rate, to both (b) and (d).
    const equalLoad: EqualLoadMeasurement[] = [];
    const equalLength = settings.amount ? roundLength(settings) : { durationSec: settings.equalLoadSec };
    for (const row of rows) {
      const rates = [...(measurements.get(`api:${row.id}`)?.samples ?? []), ...(measurements.get(`koa:${row.id}`)?.samples ?? [])].map(
        (s) => s.load.rps,
      );
      if (rates.length === 0) continue;
      const rate = Math.max(100, Math.round((Math.min(...rates) * EQUAL_LOAD_SHARE) / 100) * 100);
      const entry: EqualLoadMeasurement = { row: row.id, rate, koa: [], api: [] };
      for (let rep = 0; rep < settings.reps; rep += 1) {
        for (const server of rep % 2 === 0 ? (['koa', 'api'] as const) : (['api', 'koa'] as const)) {
          const sample = await round(row, server, { ...equalLength, rate });
          entry[server].push(sample);
          log(
            `equal load ${rate}/s rep ${rep + 1}/${settings.reps} ${server.padEnd(4)} ${row.id.padEnd(12)} p50 ${sample.load.p50.toFixed(2)} ms  p99 ${sample.load.p99.toFixed(2)} ms`,
          );
        }
      }
      equalLoad.push(entry);
    }
    const bodyBytes = Object.fromEntries(
      rows.map((row) => [row.id, Buffer.from(captured.find((c) => c.url === row.url && row.expect === 200)?.body ?? '', 'base64').length]),
    );
    return { rows, bodyBytes, measurements: [...measurements.values()], equalLoad, pinned };
  } finally {
    // The later phases run several API processes: give the load and the API every core again.
    pin(load.pid, allCores());
    pin(api.proc.pid, allCores());
    if (baseline) pin(baseline.proc.pid, allCores());
    await Promise.all([servers.raw.proc.stop(), servers.koa.proc.stop(), servers.naive.proc.stop()]);
  }
}
