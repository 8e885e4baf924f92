/**
 * The worker's news refresh over 10,000 posts (news + sentiment snapshots), called directly
 * with a JobContext in a child process: CPU per refresh, and RSS over many refreshes.
 */
import { median, quantile } from '../../dev/numbers.js';
import { allOutput, startNode } from '../lib/processes.js';
import type { Settings } from '../lib/settings.js';
import type { Stack } from '../lib/stack.js';
import type { RefreshSample } from '../lib/types.js';

export interface WorkerOutcome {
  samples: RefreshSample[];
}

export async function measureWorker(stack: Stack, settings: Settings, log: (line: string) => void): Promise<WorkerOutcome> {
  log(`${settings.refreshes} news refreshes in a worker child`);
  const child = startNode('worker-refresh', {
    script: 'bench/targets/worker-refresh.ts',
    args: [JSON.stringify({ redisUrl: stack.redis.url, simUrl: stack.sim.url, refreshes: settings.refreshes })],
    stdout: 'pipe',
  });
  const samples = JSON.parse(await allOutput(child)) as RefreshSample[];
  if (samples.length !== settings.refreshes) throw new Error(`worker child made ${samples.length} of ${settings.refreshes} refreshes`);
  return { samples };
}

export interface WorkerSummary {
  items: number;
  tokens: number;
  /** Median CPU per refresh after the first three (module loading and JIT warm-up). */
  cpuMsMedian: number;
  /** Median CPU of the refreshes that wrote history, and of those that did not (interleaved). */
  cpuMsWithHistory: number;
  cpuMsWithoutHistory: number;
  /** CPU with history / without, for each pair of adjacent refreshes (one of each). */
  historyPairRatios: number[];
  /** Every steady refresh's CPU (ms), for the interval of the median. */
  cpuMsSteady: number[];
  cpuMsP90: number;
  wallMsMedian: number;
  /**
   * Median RSS over refreshes 101-150 (the first fifth: V8 sizes its heap over the first ~100
   * refreshes, a step, not a leak) and over the last 50. Short runs use halves.
   */
  rssEarlyBytes: number;
  rssLateBytes: number;
  rssMaxBytes: number;
  /** rssLate / rssEarly. */
  rssGrowth: number;
  /** Median RSS per block of a tenth of the run, to tell a plateau from a slope. */
  rssCurveBytes: number[];
}

export function summarizeWorker({ samples }: WorkerOutcome): WorkerSummary {
  const steady = samples.length > 3 ? samples.slice(3) : samples;
  const early = samples.length >= 300 ? samples.slice(100, 150) : samples.slice(0, Math.ceil(samples.length / 2));
  const late = samples.length >= 300 ? samples.slice(-50) : samples.slice(Math.floor(samples.length / 2));
  const block = Math.max(1, Math.floor(samples.length / 10));
  const rssCurveBytes: number[] = [];
  for (let i = 0; i + block <= samples.length; i += block) rssCurveBytes.push(median(samples.slice(i, i + block).map((s) => s.rssBytes)));
  const historyPairRatios: number[] = [];
  for (let i = 0; i + 1 < steady.length; i += 2) {
    const [a, b] = [steady[i], steady[i + 1]];
    if (!a || !b || a.history === b.history) continue;
    historyPairRatios.push(a.history ? a.cpuMs / b.cpuMs : b.cpuMs / a.cpuMs);
  }
  const rssEarlyBytes = median(early.map((s) => s.rssBytes));
  const rssLateBytes = median(late.map((s) => s.rssBytes));
  return {
    items: samples[0]?.items ?? 0,
    tokens: samples[0]?.tokens ?? 0,
    cpuMsMedian: median(steady.map((s) => s.cpuMs)),
    cpuMsWithHistory: median(steady.filter((s) => s.history).map((s) => s.cpuMs)),
    cpuMsWithoutHistory: median(steady.filter((s) => !s.history).map((s) => s.cpuMs)),
    historyPairRatios,
    cpuMsSteady: steady.map((s) => s.cpuMs),
    cpuMsP90: quantile(
      steady.map((s) => s.cpuMs),
      0.9,
    ),
    wallMsMedian: median(steady.map((s) => s.wallMs)),
    rssEarlyBytes,
    rssLateBytes,
    rssMaxBytes: Math.max(...samples.map((s) => s.rssBytes)),
    rssGrowth: rssEarlyBytes > 0 ? rssLateBytes / rssEarlyBytes : 0,
    rssCurveBytes,
  };
}
