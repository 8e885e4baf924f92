/**
 * `npm start`: the whole stack on one machine for a first look. A private redis-server when
 * REDIS_URL is unset, the index simulator when INDEX_API_URL is unset and INDEX_PROVIDER is not
 * `composite` (real providers, docs/providers.md), then the worker and the
 * API as the Procfile runs them (from dist/, which `npm start` builds first), their JSON logs
 * made readable by pino-pretty. Dev only: it runs through tsx and never reaches the image.
 *
 * Ctrl-C stops the API and the worker first and waits for them, then what they use (Redis, the
 * simulator): stopped the other way round, they would log connection errors until their own
 * shutdown limit. The children run in process groups of their own, so the terminal's Ctrl-C
 * reaches this launcher only, and the order is its to keep.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { prettyFactory } from 'pino-pretty';
import { startSimulator, type Simulator } from '../apps/index-sim/src/server.js';
import { alertCommands } from './demo-alert-commands.js';
import { seedDemoUser } from './demo-user.js';
import { waitForPing } from './redis-server.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
/** The processes that use Redis and the simulator; stopped before them. */
const apps: ChildProcess[] = [];
let redis: ChildProcess | undefined;
let simulator: Simulator | undefined;

function say(line: string): void {
  process.stdout.write(`[demo] ${line}\n`);
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function freePort(preferred: number): Promise<number> {
  for (let port = preferred; port < preferred + 50; port += 1) if (await portIsFree(port)) return port;
  throw new Error(`no free port near ${preferred}`);
}

async function startRedis(): Promise<string> {
  if (spawnSync('redis-server', ['--version']).error) {
    throw new Error(
      'redis-server is not installed. Install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL.',
    );
  }
  const port = await freePort(6390);
  const dir = mkdtempSync(join(tmpdir(), 'market-signals-redis-'));
  redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', '', '--maxmemory-policy', 'noeviction'],
    { stdio: 'ignore', detached: true },
  );
  // Answering before anything connects: a client that met a refused connection would log it as a warning.
  await waitForPing(port);
  say(`private redis-server on port ${port} (data in ${dir})`);
  return `redis://127.0.0.1:${port}`;
}

/** One readable line per JSON log line (non-JSON lines pass through). */
const prettify = prettyFactory({ colorize: process.stdout.isTTY, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true });

function run(name: string, script: string, env: NodeJS.ProcessEnv, nodeFlags: readonly string[] = []): void {
  const child = spawn(process.execPath, [...nodeFlags, join(dist, script)], { env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  if (child.stdout)
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => process.stdout.write(prettify(line)));
  child.once('exit', (code, signal) => {
    if (!stopping) {
      say(`${name} exited (${signal ?? code}); stopping the stack`);
      void stop(1);
    }
  });
  apps.push(child);
}

/** One GET without keep-alive: a pooled socket would hold the API's drain on Ctrl-C. */
function probe(url: string): Promise<number> {
  return new Promise((resolve) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).once('error', () => resolve(0));
  });
}

async function waitUntilReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await probe(`${url}/readyz`)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the API did not become ready within ${timeoutMs / 1000} s`);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** SIGTERM, then SIGKILL to its whole group if it is still there after `graceMs`. */
async function terminate(child: ChildProcess, graceMs: number): Promise<void> {
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.pid && kill(-child.pid, 'SIGKILL'), graceMs);
  await exited(child);
  clearTimeout(timer);
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

let stopping = false;
let stopRequestedAt = 0;
async function stop(code: number): Promise<never> {
  stopping = true;
  stopRequestedAt = Date.now();
  // The users of Redis and the simulator first: they drain requests and finish jobs against both.
  await Promise.all(apps.map((child) => terminate(child, 10_000)));
  if (redis) await terminate(redis, 5_000);
  await simulator?.close();
  process.exit(code);
}

// Whatever way this launcher ends, no child outlives it.
process.once('exit', () => {
  for (const child of [...apps, redis]) if (child?.pid && child.exitCode === null && child.signalCode === null) kill(-child.pid, 'SIGKILL');
});

function onSignal(): void {
  if (!stopping) {
    say('stopping: API and worker first, then Redis and the simulator');
    void stop(0);
  } else if (Date.now() - stopRequestedAt > 1000) {
    // A second Ctrl-C (npm forwards the terminal's first one too: that one is ignored) forces it.
    say('stopping at once');
    process.exit(1);
  }
}

async function main(): Promise<void> {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);

  const redisUrl = process.env.REDIS_URL || (await startRedis());
  const composite = process.env.INDEX_PROVIDER === 'composite';
  let indexUrl = process.env.INDEX_API_URL;
  if (composite) say('INDEX_PROVIDER=composite: Elfa, CoinGecko and X with your keys (docs/providers.md); no simulator');
  else if (!indexUrl) {
    simulator = await startSimulator({ port: await freePort(Number(process.env.SIM_PORT) || 4010) });
    indexUrl = simulator.url;
    say(`index simulator on ${indexUrl}`);
  }
  const port = Number(process.env.PORT) || 3000;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REDIS_URL: redisUrl,
    INDEX_API_URL: indexUrl,
    PORT: String(port),
    DEMO_MODE: 'true',
    // One secret for this run, shared by every process that signs or verifies tokens.
    JWT_SECRET: process.env.JWT_SECRET || randomBytes(48).toString('base64url'),
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
    // A first look should show history growing and events arriving within minutes, not hours.
    // Real providers bill per call or per post: their usual pace.
    REFRESH_INTERVAL: process.env.REFRESH_INTERVAL || (composite ? '30m' : '1m'),
    // Alerts can be tried here: a webhook on this machine (npm run receiver) is allowed. Never in
    // production, where loadConfig refuses the variable.
    ...(process.env.NODE_ENV === 'production' ? {} : { ALERTS_ALLOW_LOOPBACK: process.env.ALERTS_ALLOW_LOOPBACK ?? 'true' }),
  };
  if (!process.env.JWT_SECRET) say('JWT_SECRET is not set: a random secret was generated for this run');

  // The user first: it also waits until the new redis-server answers, before anything connects.
  const apiKey = await seedDemoUser(redisUrl);
  run('worker', 'apps/worker/src/main.js', env);
  // The Procfile's web process, flags included (the Procfile says why).
  run('api', 'apps/api/src/main.js', env, ['--max-semi-space-size=16']);
  const base = `http://localhost:${port}`;
  await waitUntilReady(base, 90_000);
  say(`ready. Open ${base}/ in a browser: the live dashboard (${base}/docs: the API reference). Or try:`);
  for (const path of [
    '/api/market/trending',
    '/api/market/news?limit=5&page=2',
    '/api/market/trending-cas',
    `/api/market/stats/${simulator?.trackedUsernames()[0] ?? 'someone'}`,
    '/api/market/sentiment/SOL',
  ]) {
    say(`  curl -s '${base}${path}'`);
  }
  say(`the worker refreshes every ${env.REFRESH_INTERVAL} (REFRESH_INTERVAL); history and live events:`);
  say(`  curl -N ${base}/api/market/stream                      # server-sent events as refreshes land (Ctrl-C to stop)`);
  say(`  curl -N '${base}/api/market/stream?topics=trending,news'`);
  say(`  curl -s '${base}/api/market/sentiment/SOL/history?interval=30m'   # a point per refresh`);
  say(`  curl -s '${base}/api/market/tokens/SOL/history?interval=1h'`);
  say(
    `  curl -s "${base}/api/market/trending?at=$(date -u -d '2 minutes ago' +%Y-%m-%dT%H:%M:%SZ)"   # as it was (GNU date; macOS: date -u -v-2M ...)`,
  );
  say(
    `  curl -s -X POST ${base}/api/auth/login -H 'Content-Type: application/json' -d '{"email":"demo@example.com","password":"demo-password"}'`,
  );
  if (env.ALERTS_ALLOW_LOOPBACK === 'true') for (const line of alertCommands(base, apiKey)) say(line);
  say(`logs at LOG_LEVEL=${env.LOG_LEVEL} (LOG_LEVEL=debug npm start shows every request). Ctrl-C stops everything.`);
}

main().catch((error: unknown) => {
  process.stderr.write(`[demo] ${error instanceof Error ? error.message : String(error)}\n`);
  void stop(1);
});
