/**
 * `npm run bench` (docs/decisions.md#d13): one command, one run. Starts its own Redis, the simulator with
 * 10,000 posts, snapshots written by the worker's job functions, the real API process, then
 * measures reads, the dashboard page, login, WEB_CONCURRENCY=2, the stats burst, the worker and what X costs a day
 * for a tracked set (alone: `npm run bench:x-cost`), and writes
 * bench/results/<timestamp>.{json,md,svg} and (full runs only) latest.md.
 *
 * Every target is decided PASS / FAIL / INCONCLUSIVE on the interval of a median over
 * interleaved repetitions (bench/lib/interval.ts), throughput targets on CPU per request.
 *
 * `--quick` (CI): a few hundred requests per round; fails on any error or unexpected status,
 * asserts nothing about speed. `--profile`: the single API process runs with --cpu-prof and
 * its profile lands in bench/results/profiles/. `--baseline=<git revision>`: that revision's
 * API joins the read matrix as (e), so a change is measured before and after in one run.
 * `--reads-only`: the read matrix alone (its two tables and verdicts printed, nothing written),
 * and `--rows=<id>,...` only those reads of it (`--rows=trending,trending-key,trending-bearer`):
 * a before/after of one change in minutes instead of the whole run.
 * `--only=sentiment`: just the sentiment step against the scorer it replaced (a few minutes).
 * `--only=callers`: just the callers phase (worker CPU per refresh, Redis for 30 days, the API's read after a refresh; 1,000 accounts),
 *   then its two reads against cached trending on the bench's stack.
 * `--only=stories`: just the story engine's CPU per refresh at 1,000 and 10,000 posts, its share of a news refresh and its bytes
 *   in Redis, then its two reads against cached trending on the bench's stack.
 * `--only=alerts`: just the alerts phase (evaluation CPU at 1,000 to 100,000 rules, memory, refresh -> delivery latency).
 * `--only=cache-busting`: just the distinct-key reads against cached ones (issue 38 item 6), on the bench's stack.
 * `--only=export`: just GET /api/export over 30 days of history: the API's RSS and cached reads meanwhile (issue 49).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgeAlerts, measureAlerts } from './phases/alerts.js';
import { judgeAgainstTrending, measureAgainstTrending, type ReadToJudge } from './phases/against-trending.js';
import { CALLERS_BENCH_TOKEN, judgeCallers, measureCallers } from './phases/callers.js';
import { judgeCacheBusting, measureCacheBusting } from './phases/cache-busting.js';
import { judgeExport, measureExport } from './phases/export.js';
import { measureCluster } from './phases/cluster.js';
import { measureDashboard } from './phases/dashboard.js';
import { judgeHistory, measureFanOut, measureHistoryReads } from './phases/history.js';
import { measureLogin } from './phases/login.js';
import { measureMcp } from './phases/mcp.js';
import { measureReads } from './phases/reads.js';
import { judgeSentiment, measureSentiment } from './phases/sentiment.js';
import { judgeStories, measureStories, storyReads } from './phases/stories.js';
import { measureStats } from './phases/stats.js';
import { measureWorker, summarizeWorker } from './phases/worker.js';
import { measureXCost } from './phases/x-cost.js';
import { LoadGenerator } from './lib/load.js';
import { buildInto, buildRevision, ROOT, rssOf } from './lib/processes.js';
import { judgeAgainstRaw, judgeKeyed, judgeTargets, summarizeReads, summarizeSamples, type BenchResults } from './lib/results.js';
import { settingsFor } from './lib/settings.js';
import { productionLogLevel, startApi, startStack, type AppProcess, type Stack } from './lib/stack.js';
import { readMatrixSections, renderMarkdown, renderSvg } from './report.js';

const quick = process.argv.includes('--quick');
const profile = process.argv.includes('--profile');
const baselineRevision = process.argv.find((arg) => arg.startsWith('--baseline='))?.slice('--baseline='.length);
const readsOnly = process.argv.includes('--reads-only');
const onlyRows = process.argv
  .find((arg) => arg.startsWith('--rows='))
  ?.slice('--rows='.length)
  .split(',');
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const settings = settingsFor(quick);
const started = performance.now();
const startedAt = new Date().toISOString();
const loadAverageAtStart = loadavg();
const resultsDir = join(ROOT, 'bench', 'results');
const workDir = mkdtempSync(join(tmpdir(), 'market-signals-bench-'));

function log(line: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(0).padStart(4);
  process.stdout.write(`[bench ${seconds}s] ${line}\n`);
}

function autocannonVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'autocannon', 'package.json'), 'utf8')) as { version: string };
  return `autocannon ${pkg.version}`;
}

// Ctrl-C or a CI timeout: exit through process.exit, whose handlers kill every child and Redis.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    rmSync(workDir, { recursive: true, force: true });
    process.exit(130);
  });
}

async function main(): Promise<void> {
  let stack: Stack | undefined;
  let api: AppProcess | undefined;
  let baseline: AppProcess | undefined;
  const generators: LoadGenerator[] = [];
  try {
    log(`${quick ? 'quick' : 'full'} run; working files in ${workDir}`);
    if (only === 'callers' || only === 'stories') {
      // The worker's side in this process (callers on the stack's Redis), then the reads against cached trending on the stack's API.
      buildInto(join(workDir, 'build'));
      stack = await startStack();
      const lines: string[] = [];
      let reads: ReadToJudge[];
      if (only === 'callers') {
        lines.push(...judgeCallers(await measureCallers(log, stack.redis.url)));
        reads = [
          { label: 'callers leaderboard, 30 days', url: '/api/market/callers?window=30d' },
          { label: `a token's first callers (${CALLERS_BENCH_TOKEN})`, url: `/api/market/tokens/${CALLERS_BENCH_TOKEN}/callers` },
        ];
      } else {
        lines.push(...judgeStories(await measureStories(log)));
        reads = await storyReads(stack);
      }
      api = await startApi(stack, { name: 'api', workDir, webConcurrency: 1 });
      const load = await LoadGenerator.start('load');
      generators.push(load);
      for (const verdict of judgeAgainstTrending(await measureAgainstTrending(api, load, settings, log, reads))) {
        lines.push(`${verdict.verdict}: ${verdict.target}: ${verdict.measured}`);
      }
      for (const line of lines) log(line);
      return;
    }
    if (only === 'alerts') {
      // In this process over a private Redis: nothing to compile or start.
      for (const line of judgeAlerts(await measureAlerts(log))) log(line);
      return;
    }
    buildInto(join(workDir, 'build'));
    log('compiled apps/, shared/ and bench/ for the child processes');
    if (only !== undefined && only !== 'cache-busting' && only !== 'export') {
      if (only !== 'sentiment') throw new Error(`--only=${only}: only the sentiment, alerts and cache-busting phases run alone`);
      const verdict = judgeSentiment(await measureSentiment(settings, workDir, log));
      log(`${verdict.verdict}: ${verdict.target}: ${verdict.measured}`);
      return;
    }
    stack = await startStack();
    log(`redis ${stack.redis.url}, simulator ${stack.sim.url}; snapshots, stats for ${stack.cachedUsername} and the bench user seeded`);
    const profileDir = join(resultsDir, 'profiles');
    if (profile) mkdirSync(profileDir, { recursive: true });
    api = await startApi(stack, {
      name: 'api',
      workDir,
      webConcurrency: 1,
      ...(profile ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
    });
    log(`API (apps/api/src/main.ts, pid ${api.proc.pid}) ready at ${api.url}`);
    if (baselineRevision) {
      const buildDir = buildRevision(baselineRevision, join(workDir, 'baseline'));
      baseline = await startApi(stack, { name: 'baseline', workDir, webConcurrency: 1, buildDir });
      log(`baseline API (${baselineRevision}, pid ${baseline.proc.pid}) ready at ${baseline.url}`);
    }
    if (only === 'export') {
      for (const line of judgeExport(await measureExport(stack, api, log))) log(line);
      return;
    }
    const load = await LoadGenerator.start('load');
    generators.push(load);
    if (only === 'cache-busting') {
      for (const verdict of judgeCacheBusting(await measureCacheBusting(stack, api, load, settings, log))) {
        log(`${verdict.verdict}: ${verdict.target}: ${verdict.measured}`);
      }
      return;
    }
    const logins = await LoadGenerator.start('load-logins');
    generators.push(logins);

    const reads = await measureReads(stack, api, load, settings, workDir, log, baseline, onlyRows);
    await baseline?.proc.stop(10_000);
    if (readsOnly) {
      const matrix = { reads: { ...reads, summary: summarizeReads(reads) } };
      const verdicts = [...judgeAgainstRaw(matrix), ...judgeKeyed(matrix)];
      const sections = readMatrixSections({ ...matrix, verdicts, ...(baselineRevision ? { baselineRevision } : {}), settings });
      process.stdout.write(`\n${sections.join('\n')}\n${verdicts.map((v) => `- ${v.target}: ${v.measured} (${v.verdict})`).join('\n')}\n`);
      log('done (--reads-only: nothing written to bench/results)');
      return;
    }
    log(`history read vs cached trending (${stack.historyRefreshes} news refreshes of seeded history)`);
    const historyReads = await measureHistoryReads(stack, api, load, settings, log);
    log('MCP tool calls vs the REST reads of the same data');
    const mcp = await measureMcp(stack, api, load, settings, log);
    log('the dashboard (GET /) in headless Chromium: bytes and time to show the board');
    const dashboard = await measureDashboard(api, settings, log);
    if (dashboard.skipped) log(`dashboard not measured: ${dashboard.skipped}`);
    log('login');
    const login = await measureLogin(stack, api, load, logins, settings, log);
    // argon2 takes 19 MiB per hash from malloc, outside V8's heap: see what the logins left behind.
    const apiRssAfterLoginsBytes = rssOf(api.proc.pid);
    log(`API RSS after the login rounds: ${(apiRssAfterLoginsBytes / 1024 / 1024).toFixed(0)} MB`);
    log('WEB_CONCURRENCY=2');
    const cluster = await measureCluster(stack, api, load, settings, workDir, log);
    log(`${settings.burst.repeats} stats burst(s) (worker process started for them)`);
    const stats = await measureStats(stack, api, settings, workDir);
    log(
      `stats bursts: upstream calls ${stats.bursts.map((b) => b.upstreamCalls).join(', ')}; ` +
        `slowest answers ${stats.bursts.map((b) => b.burst.completionMs.at(-1)?.toFixed(0)).join(', ')} ms`,
    );
    // Last on this API: it makes the trending history 30 days long.
    log('cache-busting reads: distinct keys vs as many cached reads, per route');
    const cacheBusting = await measureCacheBusting(stack, api, load, settings, log);
    await Promise.all(generators.map((g) => g.close()));
    const apiLogBytes = api.stdoutBytes();
    await api.proc.stop(10_000);
    log('stream fan-out (an API process of its own)');
    const fanOutLoad = await LoadGenerator.start('load-fan-out');
    generators.push(fanOutLoad);
    const fanOut = await measureFanOut(stack, fanOutLoad, settings, workDir, log);
    await fanOutLoad.close();
    const worker = await measureWorker(stack, settings, log);
    // The scorer it replaced is built from git history: a copy without .git (CI's isolated run) skips the phase.
    const sentiment = existsSync(join(ROOT, '.git')) ? await measureSentiment(settings, workDir, log) : undefined;
    if (!sentiment) log('sentiment step not measured: no git history here to build the scorer it replaced from');
    log('X: requests and dollars a day for 100 and 1,000 tracked accounts (alone: npm run bench:x-cost)');
    const xCost = await measureXCost(stack.redis.url, log);

    const summary = summarizeReads(reads);
    const apiMaxRssBytes = Math.max(0, ...summary.filter((s) => s.server === 'api').map((s) => s.maxRssBytes));
    const inputs = {
      reads: { ...reads, summary },
      login,
      stats,
      cluster: { samples: cluster, single: summarizeSamples(cluster.single), clustered: summarizeSamples(cluster.cluster) },
      worker: { summary: summarizeWorker(worker), samples: worker.samples },
      apiMaxRssBytes,
      apiRssAfterLoginsBytes,
      apiLogBytes,
      history: { reads: historyReads, fanOut },
      mcp,
      sentiment,
      dashboard,
      xCost,
      cacheBusting,
    };
    const workerSummary = inputs.worker.summary;
    const results: BenchResults = {
      startedAt,
      ...(baselineRevision ? { baselineRevision } : {}),
      mode: quick ? 'quick' : 'full',
      totalSeconds: (performance.now() - started) / 1000,
      machine: {
        cpus: cpus().length,
        node: process.version,
        loadGenerator: autocannonVersion(),
        loadAverageAtStart,
        loadAverageAtEnd: loadavg(),
      },
      settings,
      apiLogLevel: productionLogLevel(stack),
      ...inputs,
      verdicts: [
        ...judgeTargets(inputs),
        ...judgeHistory(historyReads, fanOut, { pairRatios: workerSummary.historyPairRatios }),
        ...judgeCacheBusting(cacheBusting),
        ...(sentiment ? [judgeSentiment(sentiment)] : []),
      ],
    };
    const markdown = renderMarkdown(results);
    mkdirSync(resultsDir, { recursive: true });
    const stamp = `${startedAt.replace(/[:.]/g, '-')}${quick ? '-quick' : ''}`;
    writeFileSync(join(resultsDir, `${stamp}.json`), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(resultsDir, `${stamp}.md`), markdown);
    writeFileSync(join(resultsDir, `${stamp}.svg`), renderSvg(results));
    // latest.md is the table a closing note quotes: a quick (CI) run must not replace it.
    if (!quick) copyFileSync(join(resultsDir, `${stamp}.md`), join(resultsDir, 'latest.md'));
    process.stdout.write(`\n${markdown}\n`);
    const tally = (verdict: string) => results.verdicts.filter((v) => v.verdict === verdict).length;
    log(
      `done in ${results.totalSeconds.toFixed(0)} s; ${tally('PASS')} PASS, ${tally('FAIL')} FAIL, ${tally('INCONCLUSIVE')} INCONCLUSIVE` +
        `${quick ? ' (quick mode: not asserted)' : ''}; bench/results/${stamp}.{json,md,svg}`,
    );
  } catch (error) {
    process.exitCode = 1;
    log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
    for (const name of ['api.err', 'api-cluster.err', 'worker.err', 'worker.log']) {
      const file = join(workDir, name);
      if (existsSync(file) && statSync(file).size > 0) process.stderr.write(`--- ${name}\n${readFileSync(file, 'utf8').slice(-4000)}\n`);
    }
  } finally {
    await Promise.allSettled(generators.map((g) => g.close()));
    await api?.proc.stop(10_000);
    await baseline?.proc.stop(10_000);
    await stack?.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
// ioredis and BullMQ leftovers must not keep a finished run alive.
process.exit(process.exitCode ?? 0);
