/**
 * A run's results: raw samples from the phases, summarised per read, and each target of docs/decisions.md#d13
 * judged. The JSON file holds all of it; the markdown and SVG are rendered from it.
 */
import type { ClusterOutcome } from '../phases/cluster.js';
import type { FanOutOutcome, HistoryReadsOutcome } from '../phases/history.js';
import type { LoginOutcome } from '../phases/login.js';
import type { ReadsOutcome, RoundSample, ServerKind } from '../phases/reads.js';
import type { StatsOutcome } from '../phases/stats.js';
import type { WorkerOutcome, WorkerSummary } from '../phases/worker.js';
import { mean, median } from './numbers.js';
import type { Settings } from './settings.js';

export interface ReadSummary {
  row: string;
  server: ServerKind;
  rps: number;
  rpsMin: number;
  rpsMax: number;
  p50: number;
  p99: number;
  /** Server CPU time per response (all of the server's processes), µs. */
  cpuUsPerRequest: number;
  maxRssBytes: number;
}

export interface SampleSummary {
  rps: number;
  p50: number;
  p99: number;
  cpuUsPerRequest: number;
  maxRssBytes: number;
}

export interface Verdict {
  target: string;
  measured: string;
  verdict: 'pass' | 'FAIL' | 'info';
}

export interface BenchResults {
  startedAt: string;
  mode: 'full' | 'quick';
  totalSeconds: number;
  machine: { cpus: number; node: string; loadGenerator: string };
  settings: Settings;
  reads: ReadsOutcome & { summary: ReadSummary[] };
  login: LoginOutcome;
  stats: StatsOutcome;
  cluster: { samples: ClusterOutcome; single: SampleSummary; clustered: SampleSummary };
  worker: { summary: WorkerSummary; samples: WorkerOutcome['samples'] };
  /** Largest RSS of the single API process during its read rounds. */
  apiMaxRssBytes: number;
  /** RSS of the single API process right after the login rounds (argon2 allocates outside V8). */
  apiRssAfterLoginsBytes: number;
  /** Bytes of request log the API wrote (proof that logging was on). */
  apiLogBytes: number;
  /** Issue 12: history reads and the stream fan-out. */
  history: { reads: HistoryReadsOutcome; fanOut: FanOutOutcome };
  verdicts: Verdict[];
}

export function summarizeSamples(samples: RoundSample[]): SampleSummary {
  const responses = samples.reduce((sum, s) => sum + s.load.responses, 0);
  const cpuMs = samples.reduce((sum, s) => sum + s.server.cpuMs, 0);
  return {
    rps: mean(samples.map((s) => s.load.rps)),
    p50: mean(samples.map((s) => s.load.p50)),
    p99: mean(samples.map((s) => s.load.p99)),
    cpuUsPerRequest: responses > 0 ? (cpuMs * 1000) / responses : 0,
    maxRssBytes: Math.max(0, ...samples.map((s) => s.server.maxRssBytes)),
  };
}

export function summarizeReads(outcome: ReadsOutcome): ReadSummary[] {
  return outcome.measurements.map(({ row, server, samples }) => ({
    row,
    server,
    ...summarizeSamples(samples),
    rpsMin: Math.min(...samples.map((s) => s.load.rps)),
    rpsMax: Math.max(...samples.map((s) => s.load.rps)),
  }));
}

export function find(summary: ReadSummary[], row: string, server: ServerKind): ReadSummary | undefined {
  return summary.find((s) => s.row === row && s.server === server);
}

const MB = 1024 * 1024;
const x = (ratio: number) => `${ratio.toFixed(2)}x`;
const judge = (ok: boolean): Verdict['verdict'] => (ok ? 'pass' : 'FAIL');

type Inputs = Omit<BenchResults, 'verdicts' | 'totalSeconds' | 'startedAt' | 'mode' | 'machine' | 'settings'>;

export function judgeTargets(results: Inputs): Verdict[] {
  const { summary, rows } = results.reads;
  const verdicts: Verdict[] = [];
  for (const row of rows) {
    const api = find(summary, row.id, 'api');
    const koa = find(summary, row.id, 'koa');
    if (!api || !koa) continue;
    verdicts.push({
      target: `${row.label}: req/s >= 0.85x bare Koa (b)`,
      measured: `${api.rps.toFixed(0)} / ${koa.rps.toFixed(0)} = ${x(api.rps / koa.rps)}`,
      verdict: judge(api.rps >= 0.85 * koa.rps),
    });
    verdicts.push({
      target: `${row.label}: p99 <= 1.3x p99 of (b)`,
      measured: `${api.p99.toFixed(2)} / ${koa.p99.toFixed(2)} ms = ${x(api.p99 / koa.p99)}`,
      verdict: judge(api.p99 <= 1.3 * koa.p99),
    });
  }
  for (const [row, factor] of [['trending', 2], ['news-p1', 3]] as const) {
    const api = find(summary, row, 'api');
    const naive = find(summary, row, 'naive');
    if (!api || !naive) continue;
    verdicts.push({
      target: `${row}: req/s >= ${factor}x the naive design (c)`,
      measured: `${api.rps.toFixed(0)} / ${naive.rps.toFixed(0)} = ${x(api.rps / naive.rps)}`,
      verdict: judge(api.rps >= factor * naive.rps),
    });
  }
  const page1 = find(summary, 'news-p1', 'api');
  const page100 = find(summary, 'news-p100', 'api');
  if (page1 && page100) {
    const gap = page100.rps / page1.rps - 1;
    const cpuGap = page100.cpuUsPerRequest / page1.cpuUsPerRequest - 1;
    verdicts.push({
      target: 'news page 100 within 10 % of page 1 (req/s)',
      measured:
        `${page100.rps.toFixed(0)} vs ${page1.rps.toFixed(0)} req/s (${(gap * 100).toFixed(1)} %); ` +
        `API CPU ${page100.cpuUsPerRequest.toFixed(0)} vs ${page1.cpuUsPerRequest.toFixed(0)} µs/req (${(cpuGap * 100).toFixed(1)} %)`,
      verdict: judge(Math.abs(gap) <= 0.1),
    });
  }
  for (const entry of results.reads.equalLoad) {
    const koa = summarizeSamples(entry.koa);
    const api = summarizeSamples(entry.api);
    verdicts.push({
      target: `${entry.row}: p99 at equal offered load (${entry.rate} req/s to both; no target, for reading the p99 rows)`,
      measured: `API ${api.p99.toFixed(2)} ms vs (b) ${koa.p99.toFixed(2)} ms (${x(api.p99 / koa.p99)}); p50 ${api.p50.toFixed(2)} vs ${koa.p50.toFixed(2)} ms`,
      verdict: 'info',
    });
  }

  const { stats } = results;
  const slowest = stats.burst.completionMs.at(-1) ?? 0;
  verdicts.push({
    target: `stats: ${stats.requests} concurrent requests for one uncached username make exactly 1 upstream call`,
    measured: `${stats.upstreamCalls} call(s)`,
    verdict: judge(stats.upstreamCalls === 1),
  });
  const at = (ms: number | null) => (ms === null ? '?' : `+${ms.toFixed(0)} ms`);
  verdicts.push({
    target: `stats: slowest answer <= upstream latency + 50 ms (${stats.upstreamLatencyMs + 50} ms)`,
    measured:
      `slowest ${slowest.toFixed(0)} ms, fastest ${(stats.burst.completionMs[0] ?? 0).toFixed(0)} ms ` +
      `(upstream called ${at(stats.timeline.upstreamCalledMs)}, job completed ${at(stats.timeline.jobCompletedMs)})`,
    verdict: judge(slowest <= stats.upstreamLatencyMs + 50),
  });

  const { login } = results;
  verdicts.push({
    target: 'login p50 <= 60 ms (argon2id 19 MiB, t=2, p=1), one client',
    measured: `${login.alone1.p50.toFixed(1)} ms`,
    verdict: judge(login.alone1.p50 <= 60),
  });
  verdicts.push({
    target: 'login p50 with 4 clients logging in continuously (for reference)',
    measured: `${login.alone4.p50.toFixed(1)} ms alone; ${mean(login.loginsUnderReads.map((r) => r.p50)).toFixed(1)} ms during market reads`,
    verdict: 'info',
  });
  const without = mean(login.readsWithout.map((r) => r.p99));
  const withLogins = mean(login.readsWith.map((r) => r.p99));
  verdicts.push({
    target: 'market p99 at most 1.5x higher while 4 clients log in (trending, saturating load)',
    measured: `${withLogins.toFixed(2)} vs ${without.toFixed(2)} ms = ${x(withLogins / without)}`,
    verdict: judge(withLogins <= 1.5 * without),
  });
  const openWithout = mean(login.openLoop.without.map((r) => r.p99));
  const openWith = mean(login.openLoop.with.map((r) => r.p99));
  verdicts.push({
    target: `the same at ${login.openLoop.rate} req/s offered (open loop; for reading the row above)`,
    measured: `${openWith.toFixed(2)} vs ${openWithout.toFixed(2)} ms = ${x(openWith / openWithout)}`,
    verdict: 'info',
  });
  const unknown = median(login.unknownEmailMs);
  const wrong = median(login.wrongPasswordMs);
  verdicts.push({
    target: 'login: median unknown email vs wrong password differ < 10 %',
    measured: `${unknown.toFixed(1)} vs ${wrong.toFixed(1)} ms (${((Math.abs(unknown - wrong) / Math.min(unknown, wrong)) * 100).toFixed(1)} %)`,
    verdict: judge(Math.abs(unknown - wrong) < 0.1 * Math.min(unknown, wrong)),
  });

  const worker = results.worker.summary;
  verdicts.push({
    target: `worker: a refresh over ${worker.items} posts (news + sentiment) < 500 ms CPU`,
    measured: `median ${worker.cpuMsMedian.toFixed(0)} ms, p90 ${worker.cpuMsP90.toFixed(0)} ms (wall ${worker.wallMsMedian.toFixed(0)} ms)`,
    verdict: judge(worker.cpuMsMedian < 500),
  });
  verdicts.push({
    target: `worker: RSS flat within 10 % over ${results.worker.samples.length} refreshes`,
    measured: `${(worker.rssEarlyBytes / MB).toFixed(0)} MB -> ${(worker.rssLateBytes / MB).toFixed(0)} MB (${x(worker.rssGrowth)}), max ${(worker.rssMaxBytes / MB).toFixed(0)} MB`,
    verdict: judge(worker.rssGrowth <= 1.1),
  });
  verdicts.push({
    target: 'API RSS under load <= 150 MB per process',
    measured: `${(results.apiMaxRssBytes / MB).toFixed(0)} MB (1 process); ${(results.cluster.clustered.maxRssBytes / MB).toFixed(0)} MB (largest of WEB_CONCURRENCY=2)`,
    verdict: judge(Math.max(results.apiMaxRssBytes, results.cluster.clustered.maxRssBytes) <= 150 * MB),
  });
  const { single, clustered } = results.cluster;
  verdicts.push({
    target: 'WEB_CONCURRENCY=2 trending req/s (measured, no target)',
    measured: `${clustered.rps.toFixed(0)} vs ${single.rps.toFixed(0)} with 1 process (${x(clustered.rps / single.rps)})`,
    verdict: 'info',
  });
  return verdicts;
}
