/**
 * Runs the test files in parallel, each file in a mocha process of its own, a few at a time
 * (`npm test`, `npm run test:cluster`). Each process starts its own Redis (test/support/redis-server.ts),
 * on the Cluster leg shares the one cluster started here, and names its keys under prefixes of its
 * own (test/support/shared-redis.ts). Each file's wall time is printed, and the slowest at the end.
 *
 * Why a process per file: the key prefix is the process's (shared/keyspace.ts), and a file that
 * names keys under the prefix another file left behind while its child processes use the default
 * fails by the order files run in. Why not `mocha --parallel`: its worker pool, which also runs
 * several files per worker, resolved some runs with no result ("Cannot destructure property
 * 'failureCount'", about twenty files a run here) and failed the run for nothing.
 *
 * The browser tests (`*-browser.test.ts`) run after the shares, alone: Chromium takes a core, and
 * their render deadlines do not survive sharing two.
 *
 * Usage: tsx dev/test-shards.ts [--jobs=N] [--config=<mocharc exporting spec>] [file or glob...]
 */
import { spawn, spawnSync } from 'node:child_process';
import { globSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { startTestRedisCluster } from './redis-cluster.js';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
// One more than the machine has cores: at one a core the files left about half the CPU idle (they
// mostly wait on processes, timers and Redis: 400 CPU-s in 616 s of wall on two cores), and on two
// cores three at a time passed the whole suite (1,074 tests) in 335 s beside two other sessions' work.
const jobs = Number(option('jobs') ?? availableParallelism() + 1);
const config = option('config');
const patterns = args.filter((arg) => !arg.startsWith('--'));

async function specFiles(): Promise<string[]> {
  if (config) {
    const loaded = (await import(resolve(config))) as { default: { spec: string[] } };
    return loaded.default.spec;
  }
  return patterns.flatMap((pattern) => globSync(pattern)).sort();
}

interface Result {
  files: string[];
  code: number;
  output: string;
  /** Wall time of the mocha process, in ms. */
  ms: number;
}

const env: NodeJS.ProcessEnv = { ...process.env, MS_TEST_BUILT: '1', FORCE_COLOR: '0' };

/**
 * A file's process past this is killed and failed. Mocha waits for every handle to close before it
 * exits: a suite whose `after` left a stack open once held a run for 15 minutes (the longest file
 * takes about 40 s here, 100 s under heavy load).
 */
const FILE_LIMIT_MS = 10 * 60_000;
/** The process groups running (each file's mocha, its node child, its Redis and helpers). */
const groups = new Set<number>();
const killGroup = (group: number): void => {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // Gone already.
  }
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const group of groups) killGroup(group);
    process.exit(1);
  });
}

function run(files: string[]): Promise<Result> {
  const began = Date.now();
  return new Promise((done) => {
    // Under load a test shares the machine with the other shares: the parallel timeout of 60 s.
    // A group of its own, so that a file past its limit is killed with every process it started.
    // --exit: a file whose `before` timed out under load left its stack starting, and mocha then
    // waited on its handles until FILE_LIMIT_MS (two files a CI run, 20 minutes lost); what the
    // file started is reaped with its process group when it ends.
    const child = spawn(resolve('node_modules/.bin/mocha'), ['--timeout', '60000', '--exit', ...files], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const group = child.pid!;
    groups.add(group);
    let output = '';
    const limit = setTimeout(() => {
      output += `\ntest-shards: killed after ${FILE_LIMIT_MS / 60_000} minutes (a handle left open keeps mocha from exiting)\n`;
      killGroup(group);
    }, FILE_LIMIT_MS);
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => {
      clearTimeout(limit);
      killGroup(group);
      groups.delete(group);
      done({ files, code: code ?? 1, output, ms: Date.now() - began });
    });
  });
}

const files = await specFiles();
if (files.length === 0) {
  console.error('test-shards: no test files');
  process.exit(2);
}
// One build for every share (the tests of deployed processes run dist/), before any starts; none
// when the caller built already (MS_TEST_BUILT=1: .ci/run, whose fault suite runs from dist/ meanwhile).
if (process.env.MS_TEST_BUILT !== '1') {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const BROWSER = /-browser\.test\.ts$/;
// Largest first (file size stands in for run time), so the long files do not start last.
const queue = files.filter((file) => !BROWSER.test(file)).sort((a, b) => statSync(b).size - statSync(a).size);
const browser = files.filter((file) => BROWSER.test(file));

// The Cluster leg: one cluster for the whole run (test/support/shared-redis.ts gives each file's
// suites key prefixes of their own), not one per file: starting one waits ~2 s on redis-cli.
const cluster = process.env.TEST_REDIS === 'cluster' && !env.TEST_REDIS_CLUSTER_NODES ? await startTestRedisCluster() : undefined;
if (cluster) env.TEST_REDIS_CLUSTER_NODES = cluster.seeds;

console.log(`test-shards: ${files.length} files, ${jobs} at a time`);
const started = Date.now();
const results: Result[] = [];
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
function report(result: Result): void {
  results.push(result);
  console.log(`\n===== ${result.files.join(' ')}: exit ${result.code}, ${seconds(result.ms)}`);
  process.stdout.write(result.output);
}
await Promise.all(
  Array.from({ length: jobs }, async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) report(await run([file]));
  }),
);
if (browser.length > 0) report(await run(browser));

// A file that failed runs once more, alone, after the others: on two shared cores a deadline in a
// test can pass its limit for the machine's sake, not the product's (CI failed twice so on files that
// passed when run again). A file that fails again fails the run; one that passes is named below as
// flaky, with its first failure kept, so it is fixed rather than forgotten.
const firstFailures = results.filter(({ code }) => code !== 0);
const retried = new Map<string, Result>();
for (const failure of firstFailures) {
  const again = await run(failure.files);
  console.log(`\n===== retry, alone: ${again.files.join(' ')}: exit ${again.code}, ${seconds(again.ms)}`);
  process.stdout.write(again.output);
  retried.set(failure.files.join(' '), again);
}
await cluster?.stop();

// The slowest files, where time spent on the suite is best won back.
console.log('\ntest-shards: slowest files (wall time of each mocha process)');
for (const { files: slow, ms } of [...results].sort((a, b) => b.ms - a.ms).slice(0, 15)) {
  console.log(`  ${seconds(ms).padStart(7)}  ${slow.join(' ')}`);
}
const counts = results.map(({ output }) => ({
  passing: Number(/(\d+) passing/.exec(output)?.[1] ?? 0),
  failing: Number(/(\d+) failing/.exec(output)?.[1] ?? 0),
}));
console.log(
  `\ntest-shards: ${counts.reduce((sum, count) => sum + count.passing, 0)} passing, ${counts.reduce((sum, count) => sum + count.failing, 0)} failing at the first run, ${Math.round((Date.now() - started) / 1000)} s`,
);
/** Mocha's account of what failed (from "N failing" on), short enough to survive a log's tail. */
const failureExcerpt = (output: string): string => {
  const at = output.search(/\d+ failing/);
  const lines = (at >= 0 ? output.slice(at) : output).trimEnd().split('\n');
  return lines.slice(0, 40).join('\n') + (lines.length > 40 ? `\n  ... ${lines.length - 40} more lines above, in the file's output` : '');
};
// Last, so that a log cut to its tail still says what failed and why.
let failed = 0;
for (const first of firstFailures) {
  const again = retried.get(first.files.join(' '))!;
  if (again.code === 0) {
    console.log(`\ntest-shards: FLAKY (failed, then passed alone): ${first.files.join(' ')}; its first failure:`);
    console.log(failureExcerpt(first.output));
  } else {
    failed += 1;
    console.log(`\ntest-shards: FAILED twice (exit ${first.code}, then ${again.code} alone): ${first.files.join(' ')}`);
    console.log(failureExcerpt(again.output));
  }
}
console.log(`test-shards: ${failed === 0 ? 'all files passed' : `${failed} file(s) failed`}`);
process.exit(failed === 0 ? 0 : 1);
