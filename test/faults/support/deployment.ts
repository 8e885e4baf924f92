/**
 * A Procfile deployment as ops run it: built `web` and `worker` processes configured by the
 * environment only, a redis-server of its own (or a Sentinel-managed pair), the index simulator
 * as the upstream, and the users command for the operator's part.
 */
import { startSimulator, type Simulator } from '../../../apps/index-sim/src/server.js';
import { freePort } from '../../support/redis-server.js';
import { startProcess, usersCommand, type ProcfileProcess } from './procfile.js';

export interface DeploymentOptions {
  /** REDIS_URL, or the REDIS_SENTINEL* variables. */
  redisEnv: Record<string, string>;
  webs?: number;
  workers?: number;
  env?: Record<string, string>;
  /** How long the processes may take to be ready; default 30 s (a loaded machine needs more). */
  readyTimeoutMs?: number;
}

export interface Deployment {
  apiUrl: string;
  port: number;
  env: Record<string, string>;
  sim: Simulator;
  webs: ProcfileProcess[];
  workers: ProcfileProcess[];
  startWeb(env?: Record<string, string>): ProcfileProcess;
  startWorker(env?: Record<string, string>): ProcfileProcess;
  /** The users command (`node dist/scripts/users.js`), as an operator runs it. */
  users(args: string[], password?: string): { status: number | null; output: string };
  login(email: string, password: string): Promise<{ status: number; token?: string }>;
  waitReady(timeoutMs?: number): Promise<void>;
  /** The last lines every process logged (warnings and errors only), for a failing test to show. */
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

export const ADMIN = { email: 'ops@example.com', password: 'correct horse battery' };

export async function startDeployment(options: DeploymentOptions): Promise<Deployment> {
  const sim = await startSimulator();
  const port = await freePort();
  const env = {
    NODE_ENV: 'production',
    PORT: String(port),
    JWT_SECRET: 'fault-suite-secret-'.padEnd(48, 'x'),
    INDEX_API_URL: sim.url,
    LOG_LEVEL: 'info',
    // The probes look up hundreds of names from one address.
    STATS_MISS_BUDGET: '100000',
    ...options.redisEnv,
    ...options.env,
  };
  const webs: ProcfileProcess[] = [];
  const workers: ProcfileProcess[] = [];
  const apiUrl = `http://127.0.0.1:${port}`;
  const deployment: Deployment = {
    apiUrl,
    port,
    env,
    sim,
    webs,
    workers,
    startWeb(extra = {}) {
      const web = startProcess('web', { ...env, ...extra });
      webs.push(web);
      return web;
    },
    startWorker(extra = {}) {
      const worker = startProcess('worker', { ...env, ...extra });
      workers.push(worker);
      return worker;
    },
    users: (args, password) => usersCommand(env, args, password),
    async login(email, password) {
      const response = await fetch(`${apiUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      const body = (await response.json().catch(() => ({}))) as { token?: string };
      return { status: response.status, ...(body.token ? { token: body.token } : {}) };
    },
    async waitReady(timeoutMs = 30_000) {
      await until(async () => (await fetch(`${apiUrl}/readyz`)).status === 200, timeoutMs, 'readiness');
    },
    logTail(lines = 15) {
      return [...webs, ...workers]
        .map((p) => {
          const interesting = p
            .log()
            .split('\n')
            .filter((line) => line && !line.includes('"level":30'));
          return `--- ${p.type} ${p.pid} (${p.logFile})\n${interesting.slice(-lines).join('\n')}`;
        })
        .join('\n');
    },
    async stop() {
      await Promise.all([...webs, ...workers].map((p) => p.stop('SIGTERM', 10_000)));
      await sim.close();
    },
  };
  const added = deployment.users(['add', ADMIN.email, '--role', 'admin'], ADMIN.password);
  if (added.status !== 0) throw new Error(`users add failed: ${added.output}`);
  for (let i = 0; i < (options.workers ?? 1); i += 1) deployment.startWorker();
  for (let i = 0; i < (options.webs ?? 1); i += 1) deployment.startWeb();
  await deployment.waitReady(options.readyTimeoutMs);
  return deployment;
}

/** Polls `probe` every 100 ms until it is true; returns the ms it took; throws after `timeoutMs`. */
export async function until(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await probe().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
