/**
 * `npm start`: the whole stack on one machine for a first look. A private redis-server when
 * REDIS_URL is unset, the index simulator when INDEX_API_URL is unset and INDEX_PROVIDER is not
 * `composite` (real providers, docs/providers.md), then the worker and the
 * API as the Procfile runs them. Ctrl-C stops all of it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator, type Simulator } from '../apps/index-sim/src/server.js';
import { seedDemoUser } from './demo-user.js';

// Compiled, this file is dist/scripts/demo-stack.js: the entry points are beside it under dist/apps.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const children: ChildProcess[] = [];
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
    throw new Error('redis-server is not installed. Install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL.');
  }
  const port = await freePort(6390);
  const dir = mkdtempSync(join(tmpdir(), 'market-signals-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', '', '--maxmemory-policy', 'noeviction'],
    { stdio: 'ignore' },
  );
  children.push(child);
  say(`private redis-server on port ${port} (data in ${dir})`);
  return `redis://127.0.0.1:${port}`;
}

function run(name: string, script: string, env: NodeJS.ProcessEnv, nodeFlags: readonly string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...nodeFlags, join(root, script)], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.once('exit', (code, signal) => {
    if (!stopping) {
      say(`${name} exited (${signal ?? code}); stopping the stack`);
      void stop(1);
    }
  });
  children.push(child);
  return child;
}

async function waitUntilReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the API did not become ready within ${timeoutMs / 1000} s`);
}

let stopping = false;
async function stop(code: number): Promise<never> {
  stopping = true;
  for (const child of children.slice().reverse()) child.kill('SIGTERM');
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
  await simulator?.close();
  process.exit(code);
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

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
  };
  if (!process.env.JWT_SECRET) say('JWT_SECRET is not set: a random secret was generated for this run');

  run('worker', 'apps/worker/src/main.js', env);
  // The Procfile's web process, flags included (the Procfile says why).
  run('api', 'apps/api/src/main.js', env, ['--max-semi-space-size=16']);
  await seedDemoUser(redisUrl);
  const base = `http://localhost:${port}`;
  await waitUntilReady(base, 30_000);
  say('ready. Try:');
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
  say(`  curl -s "${base}/api/market/trending?at=$(date -u -d '2 minutes ago' +%Y-%m-%dT%H:%M:%SZ)"   # as it was (GNU date; macOS: date -u -v-2M ...)`);
  say(`  curl -s -X POST ${base}/api/auth/login -H 'Content-Type: application/json' -d '{"email":"demo@example.com","password":"demo-password"}'`);
  say('Ctrl-C stops everything.');
}

main().catch((error: unknown) => {
  process.stderr.write(`[demo] ${error instanceof Error ? error.message : String(error)}\n`);
  void stop(1);
});
