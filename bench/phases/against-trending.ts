/**
 * Reads judged as the read matrix and the history phase judge a read's cost: the API's CPU per
 * request against cached trending's, on the same process and connections, in interleaved rounds
 * (every second repetition in reverse order), as a paired ratio per repetition. The stories and
 * callers phases measure their reads so, each after its own refreshes have been stored.
 */
import { expectStatus } from '../lib/http.js';
import { decide, formatInterval, medianInterval, pairedRatios, type Verdict } from '../lib/interval.js';
import { assertClean, watchServer, type LoadGenerator } from '../lib/load.js';
import { roundLength, type Settings } from '../lib/settings.js';
import type { AppProcess } from '../lib/stack.js';
import { cpuUs, type RoundSample } from './reads.js';

const TRENDING = '/api/market/trending';
/** A cached read's bound: at most this much of the API's CPU per request over cached trending's. */
export const CACHED_READ_RATIO = 1.5;

export interface ReadToJudge {
  label: string;
  url: string;
}

export interface AgainstTrendingOutcome {
  trending: RoundSample[];
  reads: (ReadToJudge & { brBytes: number; samples: RoundSample[] })[];
  trendingBrBytes: number;
}

export async function measureAgainstTrending(
  api: AppProcess,
  load: LoadGenerator,
  settings: Settings,
  log: (line: string) => void,
  reads: readonly ReadToJudge[],
): Promise<AgainstTrendingOutcome> {
  // As browsers and HTTP clients ask: compressed (each body is compressed once and kept).
  const headers = { 'Accept-Encoding': 'br' };
  const size = async (url: string) => (await expectStatus(`${api.url}${url}`, 200, headers)).body.length;
  const outcome: AgainstTrendingOutcome = {
    trending: [],
    reads: await Promise.all(reads.map(async (read) => ({ ...read, brBytes: await size(read.url), samples: [] as RoundSample[] }))),
    trendingBrBytes: await size(TRENDING),
  };
  const round = async (url: string): Promise<RoundSample> => {
    const { value: result, server } = await watchServer(
      api.proc.pid,
      Promise.race([
        api.proc.died,
        load.run({ url: `${api.url}${url}`, connections: settings.connections, headers, ...roundLength(settings) }),
      ]),
      [load],
    );
    assertClean(`read ${url}`, result, 200);
    log(
      `${url.padEnd(48)} ${result.rps.toFixed(0).padStart(6)} req/s  ${((server.cpuMs * 1000) / result.responses).toFixed(1)} µs CPU/req`,
    );
    return { load: result, server };
  };
  const plan = [{ url: TRENDING, samples: outcome.trending }, ...outcome.reads];
  for (let rep = 0; rep < settings.reps; rep += 1)
    for (const entry of rep % 2 === 0 ? plan : [...plan].reverse()) entry.samples.push(await round(entry.url));
  return outcome;
}

export function judgeAgainstTrending(outcome: AgainstTrendingOutcome): Verdict[] {
  const us = (samples: RoundSample[]) => medianInterval(samples.map(cpuUs)).median.toFixed(1);
  return outcome.reads.map((read) => {
    const ratio = medianInterval(pairedRatios(read.samples.map(cpuUs), outcome.trending.map(cpuUs)));
    return {
      target: `${read.label} (${read.url}, ${(read.brBytes / 1024).toFixed(1)} KB br) vs cached trending (${(outcome.trendingBrBytes / 1024).toFixed(1)} KB br): API CPU/req <= ${CACHED_READ_RATIO}x trending's`,
      measured: `${us(read.samples)} vs ${us(outcome.trending)} µs/req: ${formatInterval(ratio)}x over ${ratio.n} reps`,
      verdict: decide(ratio, { atMost: CACHED_READ_RATIO }),
    };
  });
}
