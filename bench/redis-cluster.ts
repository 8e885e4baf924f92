/**
 * `npm run bench:redis-cluster [-- --quick]`: the same API and worker processes on one Redis
 * node and on a three-master Redis Cluster (real redis-server processes on loopback), in one
 * run, rounds interleaved: cached reads (trending), stats hits, logins (argon2-bound) and
 * stats misses (a round trip through the queue, the worker and the simulator; the upstream
 * limiter lifted). A stats hit is mostly the API's 1 s memory copy. Loads from
 * bench/clients/load.ts (autocannon) except the misses, each a distinct username, fired 8 at a
 * time from here. Two shared cores: quote the ratios of one run, not the absolute numbers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import { hashPassword } from '../apps/api/src/auth/passwords.js';
import { UserStore } from '../apps/api/src/auth/users.js';
import { fetchStats } from '../apps/worker/src/jobs/fetch-stats.js';
import { createJobContext } from '../apps/worker/src/jobs/create-job-context.js';
import { refreshList } from '../apps/worker/src/jobs/refresh-list.js';
import { refreshNews } from '../apps/worker/src/jobs/refresh-news.js';
import { createIndexClient } from '../apps/worker/src/providers/index-client.js';
import { startSimulator } from '../apps/index-sim/src/server.js';
import { loadConfig } from '../shared/config.js';
import { createLogger } from '../shared/logger.js';
import type { StatsJobData } from '../shared/queues.js';
import { createRedis } from '../shared/redis.js';
import { startTestRedisCluster } from '../dev/redis-cluster.js';
import { freePort, startTestRedis } from '../dev/redis-server.js';
import { median } from './lib/interval.js';
import { assertClean, LoadGenerator } from './lib/load.js';
import { buildInto, startNode, waitForHttp, type NodeProcess } from './lib/processes.js';

const quick = process.argv.includes('--quick');
const REPS = quick ? 1 : 5;
const ROUND = quick ? { durationSec: 1, amount: 200 } : { durationSec: 3 };
const MISSES = quick ? 16 : 64;
const USER = { email: 'bench@example.com', password: 'bench-password-correct-horse' };
const jwtSecret = 'bench-redis-cluster-'.padEnd(48, 'x');

interface Form {
  name: 'single node' | 'cluster (3 masters)';
  env: Record<string, string>;
  api?: NodeProcess;
  worker?: NodeProcess;
  url?: string;
}

const workDir = mkdtempSync(join(tmpdir(), 'market-signals-bench-cluster-'));
const log = (line: string) => process.stdout.write(`[bench:redis-cluster] ${line}\n`);

async function seed(form: Form, simUrl: string, username: string): Promise<void> {
  const config = loadConfig({ NODE_ENV: 'test', ...form.env });
  const redis = createRedis(config, 'worker', 'bench-seed');
  const context = createJobContext({
    redis,
    provider: createIndexClient({ baseUrl: simUrl, apiKey: undefined }),
    logger: createLogger({ logLevel: 'warn' }, 'bench-seed'),
    now: () => new Date(),
    historyMs: 30 * 86_400_000,
  });
  await refreshList(context, 'trending');
  await refreshList(context, 'trending-cas');
  await refreshNews(context);
  await fetchStats({ data: { username } } as Job<StatsJobData>, context);
  await new UserStore(redis).createOrReplace({ email: USER.email, role: 'user', passwordHash: await hashPassword(USER.password) });
  await redis.quit();
}

async function start(form: Form, simUrl: string): Promise<void> {
  const port = await freePort();
  // REDIS_URL emptied: the orchestrator's environment must not add a second Redis form.
  const env = {
    NODE_ENV: 'production',
    INDEX_API_URL: simUrl,
    JWT_SECRET: jwtSecret,
    LOG_LEVEL: 'warn',
    STATS_MISS_BUDGET: '100000',
    // The upstream limiter (600/min by default) would make every miss wait its turn: measure the path instead.
    INDEX_RATE_LIMIT: '1000000',
    REDIS_URL: undefined,
    ...form.env,
  };
  const tag = form.name.startsWith('single') ? 'single' : 'cluster';
  form.worker = startNode(`worker-${tag}`, {
    script: 'apps/worker/src/main.ts',
    env,
    stdout: join(workDir, `worker-${tag}.log`),
    stderrFile: join(workDir, `worker-${tag}.err`),
  });
  form.api = startNode(`api-${tag}`, {
    script: 'apps/api/src/main.ts',
    env: { ...env, PORT: String(port) },
    stdout: 'ignore',
    stderrFile: join(workDir, `api-${tag}.err`),
  });
  form.url = `http://127.0.0.1:${port}`;
  await waitForHttp(form.api, `${form.url}/readyz`);
}

/** `count` stats misses, each a username nobody asked for, 8 at a time: each answer's time in ms. */
async function misses(url: string, count: number, prefix: string): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const name = `${prefix}${(next += 1)}`;
      const started = performance.now();
      const res = await fetch(`${url}/api/market/stats/${name}`);
      await res.arrayBuffer();
      if (res.status !== 404) throw new Error(`stats miss for ${name} answered ${res.status}`);
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  return times.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  buildInto(join(workDir, 'build'));
  const [single, cluster, sim] = await Promise.all([startTestRedis(), startTestRedisCluster(), startSimulator({ postCount: 2000 })]);
  const forms: Form[] = [
    { name: 'single node', env: { REDIS_URL: single.url } },
    { name: 'cluster (3 masters)', env: { REDIS_CLUSTER_NODES: cluster.seeds } },
  ];
  const username = sim.trackedUsernames()[0]!.toLowerCase();
  const load = await LoadGenerator.start('load');
  try {
    for (const form of forms) {
      await seed(form, sim.url, username);
      await start(form, sim.url);
    }
    log(`both forms ready; ${REPS} interleaved repetitions`);
    const rounds: Record<string, Record<string, number[]>> = {};
    const note = (form: Form, what: string, value: number) => ((rounds[what] ??= {})[form.name] ??= []).push(value);
    const loginBody = JSON.stringify(USER);
    for (let rep = 0; rep < REPS; rep += 1) {
      for (const form of rep % 2 === 0 ? forms : [...forms].reverse()) {
        const url = form.url!;
        const trending = await load.run({ url: `${url}/api/market/trending`, connections: 20, ...ROUND });
        assertClean(`trending (${form.name})`, trending, 200);
        note(form, 'cached read (trending) req/s', trending.rps);
        note(form, 'cached read p99 ms', trending.p99);
        const hit = await load.run({ url: `${url}/api/market/stats/${username}`, connections: 20, ...ROUND });
        assertClean(`stats hit (${form.name})`, hit, 200);
        note(form, 'stats hit req/s', hit.rps);
        const logins = await load.run({
          url: `${url}/api/auth/login`,
          connections: 8,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: loginBody,
          ...ROUND,
        });
        assertClean(`login (${form.name})`, logins, 200);
        note(form, 'login req/s', logins.rps);
        const missTimes = await misses(url, MISSES, `nb${rep}${form.name.startsWith('single') ? 's' : 'c'}_`);
        note(form, 'stats miss p50 ms', median(missTimes));
        note(form, 'stats miss p99 ms', missTimes[Math.min(missTimes.length - 1, Math.floor(missTimes.length * 0.99))]!);
        log(
          `rep ${rep + 1} ${form.name}: trending ${trending.rps.toFixed(0)}/s, stats hit ${hit.rps.toFixed(0)}/s, login ${logins.rps.toFixed(0)}/s, miss p50 ${median(missTimes).toFixed(0)} ms`,
        );
      }
    }
    const lines = ['| Measure (median of rounds) | single node | cluster (3 masters) | cluster / single |', '|---|---:|---:|---:|'];
    for (const [what, byForm] of Object.entries(rounds)) {
      const a = median(byForm['single node'] ?? []);
      const b = median(byForm['cluster (3 masters)'] ?? []);
      lines.push(`| ${what} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)} |`);
    }
    process.stdout.write(`\n${lines.join('\n')}\n`);
  } finally {
    await load.close();
    await Promise.all(forms.flatMap((form) => [form.api, form.worker]).map((proc) => proc?.stop(10_000) ?? Promise.resolve()));
    await Promise.all([single.stop(), cluster.stop(), sim.close()]);
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
