/**
 * Issue 40: the refresh's sentiment step for 1,000 posts must stay within 1.5x the CPU of the
 * scorer before the trader lexicon (issue 30 held it within 2x of the scorer trained on generated
 * posts only, `3995913`). Both scorers run in the same run, in alternating child processes of
 * their own (today's tree, and the baseline revision compiled by `buildRevision`), each reporting
 * the median of its passes.
 */
import { join } from 'node:path';
import { decide, formatInterval, medianInterval, pairedRatios } from '../lib/interval.js';
import { allOutput, buildRevision, startNode } from '../lib/processes.js';
import type { Verdict } from '../lib/interval.js';
import type { Settings } from '../lib/settings.js';

/** main when issue 40 began: the gated stance model, before the trader lexicon. */
export const SENTIMENT_BASELINE_REVISION = '9f2f9e2';
/** The most CPU the step may take, as a multiple of the baseline's. */
const AT_MOST = 1.5;
const POSTS = 1000;
const TARGET = 'bench/targets/sentiment-step.ts';

export interface SentimentOutcome {
  revision: string;
  posts: number;
  /** Per child process, the median CPU (ms) of its passes, in run order. */
  currentMs: number[];
  baselineMs: number[];
}

async function childMedian(name: string, buildDir: string | undefined, passes: number): Promise<number> {
  const child = startNode(name, {
    script: TARGET,
    args: [JSON.stringify({ posts: POSTS, passes })],
    stdout: 'pipe',
    ...(buildDir ? { buildDir } : {}),
  });
  const cpuMs = JSON.parse(await allOutput(child)) as number[];
  return medianInterval(cpuMs).median;
}

export async function measureSentiment(
  settings: Settings,
  workDir: string,
  log: (line: string) => void,
  revision = SENTIMENT_BASELINE_REVISION,
): Promise<SentimentOutcome> {
  const baselineDir = buildRevision(revision, join(workDir, 'sentiment-baseline'), [TARGET]);
  const reps = settings.quick ? 1 : 8;
  const passes = settings.quick ? 2 : 5;
  log(`sentiment step, ${POSTS} posts: this tree vs ${revision}, ${reps} interleaved pairs of processes`);
  const outcome: SentimentOutcome = { revision, posts: POSTS, currentMs: [], baselineMs: [] };
  for (let rep = 0; rep < reps; rep += 1) {
    // Alternate which goes first, so a slow start of the machine does not fall on one side.
    const order = rep % 2 === 0 ? (['current', 'baseline'] as const) : (['baseline', 'current'] as const);
    for (const side of order) {
      const ms = await childMedian(`sentiment-${side}`, side === 'baseline' ? baselineDir : undefined, passes);
      (side === 'current' ? outcome.currentMs : outcome.baselineMs).push(ms);
    }
  }
  return outcome;
}

export function judgeSentiment(outcome: SentimentOutcome): Verdict {
  const ratio = medianInterval(pairedRatios(outcome.currentMs, outcome.baselineMs));
  const ms = (values: number[]) => medianInterval(values).median.toFixed(0);
  return {
    target: `sentiment step for ${outcome.posts} posts: CPU <= ${AT_MOST}x the scorer at ${outcome.revision} (same run, alternating processes)`,
    measured: `${ms(outcome.currentMs)} vs ${ms(outcome.baselineMs)} ms CPU: ${formatInterval(ratio)}x over ${ratio.n} pairs`,
    verdict: decide(ratio, { atMost: AT_MOST }),
  };
}
