/**
 * What the benchmark runs against: a private redis-server, the index simulator (in the
 * orchestrator: it is idle during the read rounds), snapshots written by the worker's own job
 * functions, a seeded user, and the real API and worker entry points as child processes.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import { startSimulator, type Simulator } from '../../apps/index-sim/src/server.js';
import { hashPassword } from '../../apps/api/src/auth/passwords.js';
import { ApiKeyStore } from '../../apps/api/src/auth/api-keys.js';
import { UserStore } from '../../apps/api/src/auth/users.js';
import { createIndexClient } from '../../apps/worker/src/providers/index-client.js';
import { fetchStats } from '../../apps/worker/src/jobs/fetch-stats.js';
import { createJobContext } from '../../apps/worker/src/jobs/create-job-context.js';
import { refreshNews } from '../../apps/worker/src/jobs/refresh-news.js';
import { refreshList } from '../../apps/worker/src/jobs/refresh-list.js';
import { loadConfig } from '../../shared/config.js';
import { createLogger } from '../../shared/logger.js';
import type { StatsJobData } from '../../shared/queues.js';
import { createRedis } from '../../shared/redis.js';
import { freePort, startTestRedis, type TestRedis } from '../../dev/redis-server.js';
import { seedSentimentHistory } from './history-seed.js';
import { firstLine, startNode, waitForHttp, type NodeProcess } from './processes.js';

/** Posts in the simulator's window: 10,000 gives news page 100 at limit 50 its full 50 items. */
const POST_COUNT = 10_000;
/** TRENDING_WINDOWS of the bench's processes: the windowed read rows read the 1 h lists. */
const BENCH_WINDOWS = '1h,24h';
/** HISTORY_DAYS as deployed: 30. */
export const HISTORY_MS = 30 * 86_400_000;
export const BENCH_USER = { email: 'bench@example.com', password: 'bench-password-correct-horse' };

export interface Stack {
  redis: TestRedis;
  sim: Simulator;
  /** The tracked account whose stats are in Redis (the stats hit). */
  cachedUsername: string;
  /** Tracked accounts nobody has asked for yet, one per stats burst. */
  uncachedUsernames: string[];
  /** News refreshes in the 30 days of seeded sentiment history. */
  historyRefreshes: number;
  /** One secret for every API process of the run. */
  jwtSecret: string;
  /** An API key of the bench user: the keyed read rows poll with it, as bots do. */
  apiKey: string;
  close(): Promise<void>;
}

export async function startStack(): Promise<Stack> {
  const redis = await startTestRedis();
  const sim = await startSimulator({ postCount: POST_COUNT });
  const [cachedUsername, ...uncachedUsernames] = sim.trackedUsernames();
  if (!cachedUsername || uncachedUsernames.length === 0) throw new Error('the simulator tracks fewer than two accounts');

  const client = createRedis({ redisUrl: redis.url, redisTlsInsecure: false }, 'worker', 'bench-seed');
  const context = createJobContext({
    redis: client,
    provider: createIndexClient({ baseUrl: sim.url, apiKey: undefined }),
    logger: createLogger({ logLevel: 'warn' }, 'bench-seed'),
    now: () => new Date(),
    historyMs: HISTORY_MS,
  });
  const historyRefreshes = await seedSentimentHistory(context, 30, Date.now());
  await refreshList(context, 'trending');
  await refreshList(context, 'trending-cas');
  // The windows of BENCH_WINDOWS: the 1 h lists, read by the windowed rows.
  await refreshList(context, 'trending@1h');
  await refreshList(context, 'trending-cas@1h');
  await refreshNews(context);
  await fetchStats({ data: { username: cachedUsername.toLowerCase() } } as Job<StatsJobData>, context);
  const users = new UserStore(client);
  await users.createOrReplace({
    email: BENCH_USER.email,
    role: 'user',
    passwordHash: await hashPassword(BENCH_USER.password),
  });
  const created = await new ApiKeyStore(client).create(users, BENCH_USER.email, 'bench poller');
  if (!created) throw new Error('could not make the bench API key');
  await client.quit();

  return {
    redis,
    sim,
    cachedUsername,
    uncachedUsernames,
    historyRefreshes,
    jwtSecret: randomBytes(48).toString('base64url'),
    apiKey: created.key,
    async close() {
      await sim.close();
      await redis.stop();
    },
  };
}

export interface AppProcess {
  proc: NodeProcess;
  url: string;
  /** Bytes the process wrote on stdout so far (its request log, for the API). */
  stdoutBytes(): number;
}

/**
 * The environment of the API and worker processes. LOG_LEVEL is left unset (and not inherited
 * from the shell), so the processes log at the level the configuration gives production by
 * default: the cost of whatever the API logs per request is part of what the bench measures.
 */
function serviceEnv(stack: Stack, extra: Record<string, string>): Record<string, string | undefined> {
  return {
    NODE_ENV: 'production',
    REDIS_URL: stack.redis.url,
    INDEX_API_URL: stack.sim.url,
    JWT_SECRET: stack.jwtSecret,
    TRENDING_WINDOWS: BENCH_WINDOWS,
    // The login phase's clients stand for users at many addresses; from the one loopback address
    // they (and the checks a stopped load generator leaves running) would meet the per-address cap
    // (2 by default) meant for a flood from one address, which test/api/auth/login-flood.test.ts measures.
    LOGIN_MAX_IN_FLIGHT_PER_ADDRESS: '64',
    LOG_LEVEL: undefined,
    ...extra,
  };
}

/** The log level the API processes run at (the configuration's own answer for serviceEnv). */
export function productionLogLevel(stack: Stack): string {
  const env = Object.fromEntries(
    Object.entries(serviceEnv(stack, {})).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return loadConfig(env).logLevel;
}

/** The Procfile's flags for the web process (it says why), so the bench measures what is deployed. */
const WEB_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];

/**
 * The real web entry point (apps/api/src/main.ts), ready once /readyz answers 200. Its stdout
 * is a pipe the orchestrator drains and counts, as a platform's log collector reads it (a file
 * would add the kernel's writeback of hundreds of MB to later rounds).
 */
export async function startApi(
  stack: Stack,
  options: {
    name: string;
    workDir: string;
    webConcurrency: number;
    nodeFlags?: string[];
    webFlags?: readonly string[];
    env?: Record<string, string>;
    /** Another revision's compiled tree (bench/lib/processes.ts buildRevision). */
    buildDir?: string;
  },
): Promise<AppProcess> {
  const port = await freePort();
  const proc = startNode(options.name, {
    script: 'apps/api/src/main.ts',
    env: serviceEnv(stack, { PORT: String(port), WEB_CONCURRENCY: String(options.webConcurrency), ...options.env }),
    stdout: 'pipe',
    stderrFile: join(options.workDir, `${options.name}.err`),
    nodeFlags: [...(options.webFlags ?? WEB_NODE_FLAGS), ...(options.nodeFlags ?? [])],
    ...(options.buildDir ? { buildDir: options.buildDir } : {}),
  });
  let bytes = 0;
  proc.child.stdout?.on('data', (chunk: Buffer) => (bytes += chunk.length));
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(proc, `${url}/readyz`);
  return { proc, url, stdoutBytes: () => bytes };
}

/** The real worker entry point (apps/worker/src/main.ts). */
export function startWorkerProcess(stack: Stack, workDir: string): NodeProcess {
  return startNode('worker', {
    script: 'apps/worker/src/main.ts',
    // At debug: the stats phase times a job by its "job completed" line, which the worker logs at debug.
    env: serviceEnv(stack, { LOG_LEVEL: 'debug' }),
    stdout: join(workDir, 'worker.log'),
    stderrFile: join(workDir, 'worker.err'),
  });
}

/** A ceiling or reference server from bench/targets, ready once it says so. */
export async function startTarget(name: string, script: string, args: { bodiesFile: string; redisUrl: string }): Promise<AppProcess> {
  const port = await freePort();
  const proc = startNode(name, { script, args: [JSON.stringify({ port, ...args })], stdout: 'pipe' });
  const line = await firstLine(proc);
  if (line !== 'listening') throw new Error(`${name}: unexpected first line ${line}`);
  return { proc, url: `http://127.0.0.1:${port}`, stdoutBytes: () => 0 };
}
