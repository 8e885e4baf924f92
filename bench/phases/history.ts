/**
 * Issue 12's rows: a history read (30 days at 1h for one token) against the cached trending read,
 * interleaved on the same API process; and the fan-out of one refresh to many stream clients on
 * an API process of its own (MAX_CONNECTIONS and STREAM_MAX_CLIENTS raised for them): arrival
 * measured from the write, the API's RSS, and trending reads while they are connected.
 */
import { Redis } from 'ioredis';
import { writeRefresh } from '../../shared/history/history-store.js';
import { trendingEntries } from '../../shared/history/refresh-entries.js';
import { snapshotKeys } from '../../shared/snapshot-keys.js';
import type { SentimentRecord, Snapshot, TrendingToken } from '../../shared/market-types.js';
import { expectStatus } from '../lib/http.js';
import { assertClean, watchServer, type LoadGenerator } from '../lib/load.js';
import { decide, formatInterval, medianInterval, pairedRatios } from '../lib/interval.js';
import { mean, quantile } from '../../dev/numbers.js';
import { rssOf, startNode, type NodeProcess } from '../lib/processes.js';
import { roundLength, type Settings } from '../lib/settings.js';
import { HISTORY_MS, startApi, type AppProcess, type Stack } from '../lib/stack.js';
import { cpuUs, type RoundSample } from './reads.js';
import type { Verdict } from '../lib/interval.js';

export interface HistoryReadsOutcome {
  url: string;
  points: number;
  /** Response sizes with Accept-Encoding: br, as the rounds ask. */
  historyBrBytes: number;
  trendingBrBytes: number;
  /** One round per repetition each, interleaved, with the API's CPU. */
  trending: RoundSample[];
  history: RoundSample[];
}

export interface FanOutOutcome {
  clientsWanted: number;
  clientsConnected: number;
  /** Per fan-out: arrival after the write (ms) over every connected client: p50, p99, max, and how many got it. */
  fanOuts: { p50: number; p99: number; max: number; received: number }[];
  apiRssIdleBytes: number;
  apiRssWithClientsBytes: number;
  /** Before the clients connect (first `reps`) and after they left (the rest). */
  trendingAlone: RoundSample[];
  trendingWithClients: RoundSample[];
}

async function busiestToken(redis: Redis): Promise<string> {
  const raw = await redis.get(snapshotKeys.snapshot('sentiment'));
  const records = Object.values((JSON.parse(raw ?? '{"data":{}}') as Snapshot<Record<string, SentimentRecord>>).data);
  return records.sort((x, y) => y.mentions - x.mentions)[0]?.token ?? 'BTC';
}

export async function measureHistoryReads(
  stack: Stack,
  api: AppProcess,
  load: LoadGenerator,
  settings: Settings,
  log: (line: string) => void,
): Promise<HistoryReadsOutcome> {
  const redis = new Redis(stack.redis.url, { protocol: 2 });
  const token = await busiestToken(redis);
  redis.disconnect();
  const from = new Date(Date.now() - HISTORY_MS + 3_600_000).toISOString();
  const url = `/api/market/sentiment/${token}/history?interval=1h&from=${from}`;
  const first = await expectStatus(`${api.url}${url}`, 200);
  const points = (JSON.parse(first.body.toString('utf8')) as { points: unknown[] }).points.length;
  const compressed = await expectStatus(`${api.url}${url}`, 200, { 'Accept-Encoding': 'br' });
  const trendingBr = await expectStatus(`${api.url}/api/market/trending`, 200, { 'Accept-Encoding': 'br' });
  log(
    `history read ${url}: ${points} points, ${first.body.length} bytes (${compressed.body.length} br; trending ${trendingBr.body.length} br)`,
  );
  const outcome: HistoryReadsOutcome = {
    url,
    points,
    historyBrBytes: compressed.body.length,
    trendingBrBytes: trendingBr.body.length,
    trending: [],
    history: [],
  };
  const round = async (kind: 'trending' | 'history') => {
    const path = kind === 'trending' ? '/api/market/trending' : url;
    // As browsers and HTTP clients ask: compressed (both bodies are compressed once and kept).
    const headers = { 'Accept-Encoding': 'br' };
    const { value: result, server } = await watchServer(
      api.proc.pid,
      Promise.race([
        api.proc.died,
        load.run({ url: `${api.url}${path}`, connections: settings.connections, headers, ...roundLength(settings) }),
      ]),
      [load],
    );
    assertClean(`history phase ${kind}`, result, 200);
    outcome[kind].push({ load: result, server });
    log(
      `${kind.padEnd(8)} ${result.rps.toFixed(0).padStart(6)} req/s  ${((server.cpuMs * 1000) / result.responses).toFixed(1)} µs CPU/req  p99 ${result.p99.toFixed(2)} ms`,
    );
  };
  for (let rep = 0; rep < settings.reps; rep += 1) {
    for (const kind of rep % 2 === 0 ? (['trending', 'history'] as const) : (['history', 'trending'] as const)) await round(kind);
  }
  return outcome;
}

/** The SSE fleet child, driven over IPC. */
class Fleet {
  private nextId = 0;
  private readonly waiting = new Map<number, (value: unknown) => void>();
  private constructor(readonly proc: NodeProcess) {
    proc.child.on('message', (message: { id?: number; result?: unknown }) => {
      if (message.id !== undefined) this.waiting.get(message.id)?.(message.result);
    });
  }
  static async start(): Promise<Fleet> {
    const proc = startNode('sse-fleet', { script: 'bench/clients/sse-fleet.ts', ipc: true });
    await Promise.race([proc.died, new Promise<void>((resolve) => proc.child.once('message', () => resolve()))]);
    return new Fleet(proc);
  }
  send<T>(command: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return Promise.race([
      this.proc.died,
      new Promise<T>((resolve) => {
        this.waiting.set(id, resolve as (value: unknown) => void);
        this.proc.child.send({ ...command, id });
      }),
    ]);
  }
}

/** A trending write as the worker makes it (writeRefresh, the same script), timed from just before it is sent. */
async function writeTrending(redis: Redis): Promise<number> {
  const current = JSON.parse((await redis.get(snapshotKeys.snapshot('trending'))) ?? '{"data":[]}') as Snapshot<TrendingToken[]>;
  const at = Date.now();
  const cachedAt = new Date(at).toISOString();
  const body = JSON.stringify({ data: current.data, cachedAt });
  const sentAt = performance.timeOrigin + performance.now();
  await writeRefresh(
    redis,
    { atMs: at, snapshots: [{ name: 'trending', body, version: cachedAt }], entries: trendingEntries(body, current.data) },
    HISTORY_MS,
  );
  return sentAt;
}

export async function measureFanOut(
  stack: Stack,
  load: LoadGenerator,
  settings: Settings,
  workDir: string,
  log: (line: string) => void,
): Promise<FanOutOutcome> {
  const wanted = settings.quick ? 500 : 10_000;
  const api = await startApi(stack, {
    name: 'api-stream',
    workDir,
    webConcurrency: 1,
    // The whole fleet connects from this machine: the per-address caps are lifted with the others.
    env: {
      MAX_CONNECTIONS: String(wanted + 2000),
      MAX_CONNECTIONS_PER_ADDRESS: String(wanted + 2000),
      STREAM_MAX_CLIENTS: String(wanted + 1000),
      STREAM_MAX_CLIENTS_PER_ADDRESS: String(wanted + 1000),
    },
  });
  const redis = new Redis(stack.redis.url, { protocol: 2 });
  const fleet = await Fleet.start();
  try {
    const trendingRound = async (): Promise<RoundSample> => {
      const { value, server } = await watchServer(
        api.proc.pid,
        Promise.race([
          api.proc.died,
          load.run({ url: `${api.url}/api/market/trending`, connections: settings.connections, ...roundLength(settings) }),
        ]),
        [load],
      );
      assertClean('fan-out trending', value, 200);
      return { load: value, server };
    };
    const outcome: FanOutOutcome = {
      clientsWanted: wanted,
      clientsConnected: 0,
      fanOuts: [],
      apiRssIdleBytes: 0,
      apiRssWithClientsBytes: 0,
      trendingAlone: [],
      trendingWithClients: [],
    };
    // A fresh process: one unrecorded round first (JIT), then rounds alone before and after the clients.
    if (!settings.quick) await trendingRound();
    for (let i = 0; i < settings.reps; i += 1) outcome.trendingAlone.push(await trendingRound());
    outcome.apiRssIdleBytes = rssOf(api.proc.pid);
    const port = Number(new URL(api.url).port);
    const connected = await fleet.send<{ ok: number; attempted: number }>({
      op: 'connect',
      port,
      path: '/api/market/stream?topics=trending',
      count: wanted,
    });
    outcome.clientsConnected = connected.ok;
    log(`fan-out: ${connected.ok} of ${wanted} stream clients connected`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (let i = 0; i < 3; i += 1) {
      await fleet.send({ op: 'arm' });
      const sentAt = await writeTrending(redis);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const { arrivals } = await fleet.send<{ arrivals: (number | null)[] }>({ op: 'collect' });
      const got = arrivals.filter((a): a is number => a !== null).map((a) => a - sentAt);
      const sorted = got.sort((a, b) => a - b);
      const fanOut = { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? Infinity, received: got.length };
      outcome.fanOuts.push(fanOut);
      log(
        `fan-out ${i + 1}: ${got.length}/${arrivals.length} got it; p50 ${fanOut.p50.toFixed(0)} ms, p99 ${fanOut.p99.toFixed(0)} ms, max ${fanOut.max.toFixed(0)} ms`,
      );
    }
    outcome.apiRssWithClientsBytes = rssOf(api.proc.pid);
    log(
      `API RSS ${(outcome.apiRssIdleBytes / 1048576).toFixed(0)} MB alone, ${(outcome.apiRssWithClientsBytes / 1048576).toFixed(0)} MB with the clients`,
    );
    for (let i = 0; i < settings.reps; i += 1) outcome.trendingWithClients.push(await trendingRound());
    await fleet.send({ op: 'close' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (let i = 0; i < settings.reps; i += 1) outcome.trendingAlone.push(await trendingRound());
    log(
      `trending ${mean(outcome.trendingAlone.map((r) => r.load.rps)).toFixed(0)} req/s alone, ${mean(outcome.trendingWithClients.map((r) => r.load.rps)).toFixed(0)} with the clients`,
    );
    return outcome;
  } finally {
    await fleet.send({ op: 'close' }).catch(() => {});
    await fleet.proc.stop(2000);
    redis.disconnect();
    await api.proc.stop(25_000);
  }
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;

/**
 * History reads are judged on the API's CPU per request (req/s on two shared cores is mostly
 * the scheduler's), paired per repetition; the fan-out on all of its refreshes; trending with
 * the stream clients on CPU per request against the mean of the rounds just before and after.
 */
export function judgeHistory(reads: HistoryReadsOutcome, fan: FanOutOutcome, worker: { pairRatios: number[] }): Verdict[] {
  const reps = reads.trending.length;
  const historyCost = medianInterval(pairedRatios(reads.history.map(cpuUs), reads.trending.map(cpuUs)));
  const historyP99 = medianInterval(
    pairedRatios(
      reads.history.map((s) => s.load.p99),
      reads.trending.map((s) => s.load.p99),
    ),
  );
  const historyRps = medianInterval(
    pairedRatios(
      reads.history.map((s) => s.load.rps),
      reads.trending.map((s) => s.load.rps),
    ),
  );
  const apiUs = (list: RoundSample[]) => medianInterval(list.map(cpuUs)).median.toFixed(1);
  const within = fan.fanOuts.filter((f) => f.p99 <= 1000).length;
  const allReceived = fan.clientsConnected >= fan.clientsWanted && fan.fanOuts.every((f) => f.received === fan.clientsConnected);
  const alone = fan.trendingAlone;
  const before = alone.slice(0, fan.trendingWithClients.length);
  const after = alone.slice(fan.trendingWithClients.length);
  const aloneCost = before.map((s, i) => (cpuUs(s) + cpuUs(after[i] ?? s)) / 2);
  const clientsCost = medianInterval(pairedRatios(fan.trendingWithClients.map(cpuUs), aloneCost));
  const workerCost = medianInterval(worker.pairRatios);
  return [
    {
      target: `history read (30 days at 1h, ${reads.points} points, ${(reads.historyBrBytes / 1024).toFixed(1)} KB br) vs cached trending (${(reads.trendingBrBytes / 1024).toFixed(1)} KB br): capacity >= 0.5x, judged as API CPU/req <= 2x trending's`,
      measured: `${apiUs(reads.history)} vs ${apiUs(reads.trending)} µs/req: ${formatInterval(historyCost)}x over ${reps} reps (req/s ratio ${formatInterval(historyRps)}x)`,
      verdict: decide(historyCost, { atMost: 2 }),
    },
    {
      target: 'history read: p99 <= 2x cached trending (same process, same connections)',
      measured: `${formatInterval(historyP99)}x over ${reps} reps`,
      verdict: decide(historyP99, { atMost: 2 }),
    },
    {
      target: `fan-out to ${fan.clientsConnected} stream clients (${fan.clientsWanted} wanted): p99 arrival after the write <= 1 s, every refresh`,
      measured: `p99s ${fan.fanOuts.map((f) => f.p99.toFixed(0)).join(', ')} ms (p50s ${fan.fanOuts.map((f) => f.p50.toFixed(0)).join(', ')} ms; received ${fan.fanOuts.map((f) => f.received).join(', ')})`,
      // Every refresh in time: PASS; most late or clients lost: FAIL; one late of three: INCONCLUSIVE.
      verdict: !allReceived || within * 2 < fan.fanOuts.length ? 'FAIL' : within === fan.fanOuts.length ? 'PASS' : 'INCONCLUSIVE',
    },
    {
      target: 'API RSS with the stream clients <= 400 MB (memory: one reading, not CPU-time noise)',
      measured: `${mb(fan.apiRssWithClientsBytes)} (${mb(fan.apiRssIdleBytes)} before they connected)`,
      verdict: fan.apiRssWithClientsBytes <= 400 * 1048576 ? 'PASS' : 'FAIL',
    },
    {
      target: 'trending with the stream clients connected: capacity >= 0.8x without, judged as API CPU/req <= 1.25x',
      measured: `${apiUs(fan.trendingWithClients)} vs ${apiUs(alone)} µs/req: ${formatInterval(clientsCost)}x over ${clientsCost.n} reps`,
      verdict: decide(clientsCost, { atMost: 1.25 }),
    },
    {
      target: 'worker news refresh CPU with history <= 1.2x without (adjacent refreshes paired)',
      measured: `${formatInterval(workerCost)}x over ${workerCost.n} pairs`,
      verdict: decide(workerCost, { atMost: 1.2 }),
    },
  ];
}
