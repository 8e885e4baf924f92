/**
 * A run's results: raw samples from the phases, summarised per read, and each target judged
 * on the interval of a median over interleaved repetitions (lib/interval.ts says how). The JSON
 * file holds all of it; the markdown and SVG are rendered from it.
 *
 * Throughput targets ("req/s >= k x server B") are judged on CPU per request, as "the API's CPU
 * per request <= 1/k x B's": on two cores shared by the server, the load generator and whatever
 * else runs, req/s measures the share of a core the scheduler gave the server in that round;
 * CPU per request is the cost the ratio was meant to compare, and req/s = share / cost.
 */
import type { XCostRow } from '../phases/x-cost.js';
import type { CacheBustingOutcome } from '../phases/cache-busting.js';
import type { ClusterOutcome } from '../phases/cluster.js';
import type { DashboardOutcome } from '../phases/dashboard.js';
import type { FanOutOutcome, HistoryReadsOutcome } from '../phases/history.js';
import type { LoginOutcome } from '../phases/login.js';
import type { McpOutcome } from '../phases/mcp.js';
import { cpuUs, cpuWithRedisUs, type ReadsOutcome, type RoundSample, type ServerKind } from '../phases/reads.js';
import type { SentimentOutcome } from '../phases/sentiment.js';
import type { StatsOutcome } from '../phases/stats.js';
import type { WorkerOutcome, WorkerSummary } from '../phases/worker.js';
import { decide, formatInterval, medianInterval, pairedRatios, type Interval, type Verdict } from './interval.js';
import { mean } from '../../dev/numbers.js';
import type { Settings } from './settings.js';

export interface ReadSummary {
  row: string;
  server: ServerKind;
  /** Medians over the repetitions. */
  rps: number;
  rpsMin: number;
  rpsMax: number;
  p50: number;
  p99: number;
  /** Server CPU time per response (all of the server's processes), µs: median over rounds. */
  cpuUsPerRequest: number;
  cpuUs: Interval;
  /** Redis's CPU per response in the same rounds, µs (the naive design's reads cost it). */
  redisUsPerRequest: number;
  maxRssBytes: number;
}

export interface SampleSummary {
  rps: number;
  p50: number;
  p99: number;
  cpuUsPerRequest: number;
  maxRssBytes: number;
}

export interface BenchResults {
  startedAt: string;
  /** `--baseline`: the git revision whose API ran in the read matrix as (e). */
  baselineRevision?: string;
  mode: 'full' | 'quick';
  totalSeconds: number;
  machine: { cpus: number; node: string; loadGenerator: string; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  settings: Settings;
  /** LOG_LEVEL the API ran at: the configuration's default for NODE_ENV=production. */
  apiLogLevel: string;
  reads: ReadsOutcome & { summary: ReadSummary[] };
  login: LoginOutcome;
  stats: StatsOutcome;
  cluster: { samples: ClusterOutcome; single: SampleSummary; clustered: SampleSummary };
  worker: { summary: WorkerSummary; samples: WorkerOutcome['samples'] };
  /** Largest RSS of the single API process during its read rounds. */
  apiMaxRssBytes: number;
  /** RSS of the single API process right after the login rounds (argon2 allocates outside V8). */
  apiRssAfterLoginsBytes: number;
  /** Bytes the API wrote on stdout (its request log, if it logs requests at that level). */
  apiLogBytes: number;
  /** Issue 12: history reads and the stream fan-out. */
  history: { reads: HistoryReadsOutcome; fanOut: FanOutOutcome };
  /** Issue 21: MCP tool calls against the REST reads of the same data. */
  mcp: McpOutcome;
  /** Issue 30: the sentiment step against the scorer it replaced (absent in earlier results). */
  sentiment?: SentimentOutcome;
  /** Issue 31: the dashboard's weight and time to show the board (absent from runs before it). */
  dashboard?: DashboardOutcome;
  /** Issue 27: X requests and dollars a day for 100 and 1,000 tracked accounts. */
  xCost?: XCostRow[];
  /** Issue 38 item 6: distinct-key reads against cached ones (absent from runs before it). */
  cacheBusting?: CacheBustingOutcome;
  verdicts: Verdict[];
}

export function summarizeSamples(samples: RoundSample[]): SampleSummary {
  return {
    rps: medianInterval(samples.map((s) => s.load.rps)).median,
    p50: medianInterval(samples.map((s) => s.load.p50)).median,
    p99: medianInterval(samples.map((s) => s.load.p99)).median,
    cpuUsPerRequest: medianInterval(samples.map(cpuUs)).median,
    maxRssBytes: Math.max(0, ...samples.map((s) => s.server.maxRssBytes)),
  };
}

export function summarizeReads(outcome: ReadsOutcome): ReadSummary[] {
  return outcome.measurements.map(({ row, server, samples }) => {
    const cpu = medianInterval(samples.map(cpuUs));
    return {
      row,
      server,
      ...summarizeSamples(samples),
      cpuUs: cpu,
      redisUsPerRequest: medianInterval(samples.map((s) => cpuWithRedisUs(s) - cpuUs(s))).median,
      rpsMin: Math.min(...samples.map((s) => s.load.rps)),
      rpsMax: Math.max(...samples.map((s) => s.load.rps)),
    };
  });
}

export function find(summary: ReadSummary[], row: string, server: ServerKind): ReadSummary | undefined {
  return summary.find((s) => s.row === row && s.server === server);
}

const MB = 1024 * 1024;
const us = (v: number) => `${v.toFixed(1)} µs`;

type Inputs = Omit<BenchResults, 'verdicts' | 'totalSeconds' | 'startedAt' | 'mode' | 'machine' | 'settings' | 'apiLogLevel'>;

/** The samples of (row, server) in repetition order. */
function samplesOf(results: Pick<Inputs, 'reads'>, row: string, server: ServerKind): RoundSample[] {
  return results.reads.measurements.find((m) => m.row === row && m.server === server)?.samples ?? [];
}

/** A target on a per-repetition list of values: median, interval, verdict. */
function onInterval(
  target: string,
  values: number[],
  bound: { atMost?: number; atLeast?: number },
  describe: (interval: Interval) => string,
): Verdict {
  const interval = medianInterval(values);
  return { target, measured: describe(interval), verdict: decide(interval, bound) };
}

/** The cached reads against (a) raw node:http: the API's CPU per request over raw's, per repetition. */
export function judgeAgainstRaw(results: Pick<Inputs, 'reads'>): Verdict[] {
  return results.reads.rows.flatMap((row) => {
    const api = samplesOf(results, row.id, 'api');
    const raw = samplesOf(results, row.id, 'raw');
    if (api.length === 0 || raw.length === 0) return [];
    return [
      onInterval(
        `${row.label}: API CPU per request <= 1.5x raw node:http (a) serving the same bytes`,
        pairedRatios(api.map(cpuUs), raw.map(cpuUs)),
        { atMost: 1.5 },
        (i) =>
          `${us(medianInterval(api.map(cpuUs)).median)} vs ${us(medianInterval(raw.map(cpuUs)).median)} per request: ${formatInterval(i)}x (${i.n} reps)`,
      ),
    ];
  });
}

/**
 * Keyed reads (issue 29): the API's CPU per request with a key over the same read without one,
 * per repetition; the baseline's ratio, when the run has one, for the before.
 */
export function judgeKeyed(results: Pick<Inputs, 'reads'>): Verdict[] {
  return results.reads.rows.flatMap((row) => {
    if (!row.anonymousOf) return [];
    const anonymous = results.reads.rows.find((r) => r.id === row.anonymousOf);
    const verdicts: Verdict[] = [];
    for (const server of ['api', 'baseline'] as const) {
      const keyed = samplesOf(results, row.id, server);
      const plain = samplesOf(results, row.anonymousOf, server);
      if (keyed.length === 0 || plain.length === 0) continue;
      const target = `${row.label}: ${server === 'api' ? 'API' : 'baseline (e)'} CPU per request <= 1.3x the same read without a key (${anonymous?.label ?? row.anonymousOf})`;
      const verdict = onInterval(
        target,
        pairedRatios(keyed.map(cpuUs), plain.map(cpuUs)),
        { atMost: 1.3 },
        (i) => `${us(medianInterval(keyed.map(cpuUs)).median)} vs ${us(medianInterval(plain.map(cpuUs)).median)}: ${formatInterval(i)}x`,
      );
      verdicts.push(server === 'api' ? verdict : { ...verdict, verdict: 'info' });
    }
    return verdicts;
  });
}

export function judgeTargets(results: Inputs): Verdict[] {
  const { rows } = results.reads;
  const verdicts: Verdict[] = [...judgeAgainstRaw(results), ...judgeKeyed(results)];
  for (const row of rows) {
    const api = samplesOf(results, row.id, 'api');
    const koa = samplesOf(results, row.id, 'koa');
    if (api.length === 0 || koa.length === 0) continue;
    const rpsRatio = medianInterval(
      pairedRatios(
        api.map((s) => s.load.rps),
        koa.map((s) => s.load.rps),
      ),
    );
    verdicts.push(
      onInterval(
        `${row.label}: capacity >= 0.85x bare Koa (b), judged as API CPU/req <= 1.18x (b)'s`,
        pairedRatios(api.map(cpuUs), koa.map(cpuUs)),
        { atMost: 1 / 0.85 },
        (i) =>
          `${us(medianInterval(api.map(cpuUs)).median)} vs ${us(medianInterval(koa.map(cpuUs)).median)}: ${formatInterval(i)}x (req/s ratio ${formatInterval(rpsRatio)}x)`,
      ),
    );
    const equal = results.reads.equalLoad.find((e) => e.row === row.id);
    if (equal) {
      verdicts.push(
        onInterval(
          `${row.label}: p99 <= 1.3x (b)'s at equal offered load (${equal.rate} req/s to both, open loop)`,
          pairedRatios(
            equal.api.map((s) => s.load.p99),
            equal.koa.map((s) => s.load.p99),
          ),
          { atMost: 1.3 },
          (i) =>
            `${medianInterval(equal.api.map((s) => s.load.p99)).median.toFixed(2)} vs ${medianInterval(equal.koa.map((s) => s.load.p99)).median.toFixed(2)} ms: ${formatInterval(i)}x`,
        ),
      );
    }
  }
  for (const [rowId, factor] of [
    ['trending', 2],
    ['news-p1', 3],
  ] as const) {
    const api = samplesOf(results, rowId, 'api');
    const naive = samplesOf(results, rowId, 'naive');
    if (api.length === 0 || naive.length === 0) continue;
    verdicts.push(
      onInterval(
        `${rowId}: capacity >= ${factor}x the naive design (c), judged as (c)'s CPU/req (its process + Redis) >= ${factor}x the API's`,
        pairedRatios(naive.map(cpuWithRedisUs), api.map(cpuWithRedisUs)),
        { atLeast: factor },
        (i) =>
          `${us(medianInterval(naive.map(cpuWithRedisUs)).median)} vs ${us(medianInterval(api.map(cpuWithRedisUs)).median)}: ${formatInterval(i)}x`,
      ),
    );
  }
  const page1 = samplesOf(results, 'news-p1', 'api');
  const page100 = samplesOf(results, 'news-p100', 'api');
  if (page1.length > 0 && page100.length > 0) {
    verdicts.push(
      onInterval(
        'news page 100 within 10 % of page 1, judged as API CPU/req ratio in [0.9, 1.1]',
        pairedRatios(page100.map(cpuUs), page1.map(cpuUs)),
        { atLeast: 0.9, atMost: 1.1 },
        (i) => `${us(medianInterval(page100.map(cpuUs)).median)} vs ${us(medianInterval(page1.map(cpuUs)).median)}: ${formatInterval(i)}x`,
      ),
    );
  }
  // Issue 31: a page of one token's posts is served from the per-token index as a page of all posts is.
  const byToken = samplesOf(results, 'news-token', 'api');
  if (page1.length > 0 && byToken.length > 0) {
    verdicts.push(
      onInterval(
        'news ?token= page 1 no slower than news page 1, judged as API CPU/req ratio <= 1.1',
        pairedRatios(byToken.map(cpuUs), page1.map(cpuUs)),
        { atMost: 1.1 },
        (i) => `${us(medianInterval(byToken.map(cpuUs)).median)} vs ${us(medianInterval(page1.map(cpuUs)).median)}: ${formatInterval(i)}x`,
      ),
    );
  }

  const { stats } = results;
  const calls = stats.bursts.map((b) => b.upstreamCalls);
  verdicts.push({
    target: `stats: ${stats.requests} concurrent requests for one uncached username make exactly 1 upstream call (every burst: a count, not a timing)`,
    measured: `${calls.join(', ')} call(s) in ${calls.length} burst(s)`,
    verdict: calls.length > 0 && calls.every((n) => n === 1) ? 'PASS' : 'FAIL',
  });
  const at = (ms: number | null) => (ms === null ? '?' : `+${ms.toFixed(0)}`);
  verdicts.push(
    onInterval(
      `stats: slowest answer of a burst <= upstream latency + 50 ms (${stats.upstreamLatencyMs + 50} ms), median burst`,
      stats.bursts.map((b) => b.burst.completionMs.at(-1) ?? NaN),
      { atMost: stats.upstreamLatencyMs + 50 },
      (i) =>
        `${formatInterval(i, 0, ' ms')} over ${i.n} bursts (slowest each: ${stats.bursts.map((b) => (b.burst.completionMs.at(-1) ?? 0).toFixed(0)).join(', ')} ms; ` +
        `upstream called ${stats.bursts.map((b) => at(b.timeline.upstreamCalledMs)).join(', ')} ms)`,
    ),
  );

  const { login } = results;
  verdicts.push(
    onInterval(
      'login p50 <= 60 ms (argon2id 19 MiB, t=2, p=1), one client',
      login.alone1.map((r) => r.p50),
      { atMost: 60 },
      (i) => `${formatInterval(i, 1, ' ms')} over ${i.n} rounds`,
    ),
  );
  verdicts.push({
    target: 'login p50 with 4 clients logging in continuously (for reference)',
    measured: `${login.alone4.p50.toFixed(1)} ms alone; ${mean(login.loginsUnderReads.map((r) => r.p50)).toFixed(1)} ms during market reads`,
    verdict: 'info',
  });
  verdicts.push(
    onInterval(
      'market p99 at most 1.5x higher while 4 clients log in (trending, saturating load)',
      pairedRatios(
        login.readsWith.map((r) => r.p99),
        login.readsWithout.map((r) => r.p99),
      ),
      { atMost: 1.5 },
      (i) =>
        `${medianInterval(login.readsWith.map((r) => r.p99)).median.toFixed(2)} vs ${medianInterval(login.readsWithout.map((r) => r.p99)).median.toFixed(2)} ms: ${formatInterval(i)}x`,
    ),
  );
  const open = medianInterval(
    pairedRatios(
      login.openLoop.with.map((r) => r.p99),
      login.openLoop.without.map((r) => r.p99),
    ),
  );
  verdicts.push({
    target: `the same at ${login.openLoop.rate} req/s offered (open loop; for reading the row above)`,
    measured: `${formatInterval(open)}x`,
    verdict: 'info',
  });
  verdicts.push(
    onInterval(
      'login: unknown email vs wrong password differ < 10 % (ratio of alternating attempts in [0.91, 1.1])',
      pairedRatios(login.unknownEmailMs, login.wrongPasswordMs),
      { atLeast: 1 / 1.1, atMost: 1.1 },
      (i) =>
        `medians ${medianInterval(login.unknownEmailMs).median.toFixed(1)} vs ${medianInterval(login.wrongPasswordMs).median.toFixed(1)} ms; paired ratio ${formatInterval(i, 3)} (${i.n} pairs)`,
    ),
  );

  const worker = results.worker.summary;
  verdicts.push(
    onInterval(
      `worker: a refresh over ${worker.items} posts (news + sentiment) < 500 ms CPU`,
      worker.cpuMsSteady,
      { atMost: 500 },
      (i) => `median ${formatInterval(i, 0, ' ms')}, p90 ${worker.cpuMsP90.toFixed(0)} ms (wall ${worker.wallMsMedian.toFixed(0)} ms)`,
    ),
  );
  verdicts.push({
    target: `worker: RSS flat within 10 % over ${results.worker.samples.length} refreshes (memory: medians of 50 readings each end)`,
    measured: `${(worker.rssEarlyBytes / MB).toFixed(0)} MB -> ${(worker.rssLateBytes / MB).toFixed(0)} MB (${worker.rssGrowth.toFixed(2)}x), max ${(worker.rssMaxBytes / MB).toFixed(0)} MB`,
    verdict: worker.rssGrowth <= 1.1 ? 'PASS' : 'FAIL',
  });
  // The peak of each read round, not the largest reading of the run: a maximum grows with the
  // run's length and catches a single GC's overshoot; the median round is the process under load.
  const apiPeaks = results.reads.measurements
    .filter((m) => m.server === 'api')
    .flatMap((m) => m.samples.map((s) => s.server.maxRssBytes / MB));
  const clusterPeaks = results.cluster.samples.cluster.map((s) => s.server.maxRssBytes / MB);
  verdicts.push(
    onInterval(
      "API RSS under load <= 150 MB per process (median of the read rounds' peaks, WEB_CONCURRENCY=2's included)",
      [...apiPeaks, ...clusterPeaks],
      { atMost: 150 },
      (i) =>
        `${formatInterval(i, 0, ' MB')} over ${i.n} rounds; largest reading ${(results.apiMaxRssBytes / MB).toFixed(0)} MB (1 process), ${(results.cluster.clustered.maxRssBytes / MB).toFixed(0)} MB (largest of WEB_CONCURRENCY=2)`,
    ),
  );
  const { single, clustered } = results.cluster;
  verdicts.push({
    target: 'WEB_CONCURRENCY=2 trending req/s (measured, no target)',
    measured: `${clustered.rps.toFixed(0)} vs ${single.rps.toFixed(0)} with 1 process (${(clustered.rps / single.rps).toFixed(2)}x)`,
    verdict: 'info',
  });
  return verdicts;
}
