/**
 * The Procfile's processes as real children, the way a platform runs them: the command of a
 * `web:` or `worker:` line from the compiled build (`npm run build` first), environment only,
 * its own process group, logs kept in a file for a failing test to show.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../../support/build.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const logDir = mkdtempSync(join(tmpdir(), 'ms-faults-'));

export type ProcessType = 'web' | 'worker';

/** The Procfile's command for a process type (comments and blank lines skipped). */
export function procfileCommand(type: ProcessType): string {
  const line = readFileSync(join(ROOT, 'Procfile'), 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${type}:`));
  if (!line) throw new Error(`Procfile has no ${type} line`);
  return line.slice(type.length + 1).trim();
}

export interface ProcfileProcess {
  type: ProcessType;
  child: ChildProcess;
  pid: number;
  /** Where its stdout and stderr go. */
  logFile: string;
  /** Sends a signal; resolves with how it ended once it has exited (SIGKILL after `killAfterMs`). */
  stop(signal?: NodeJS.Signals, killAfterMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
  exited(): boolean;
  log(): string;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

let sequence = 0;

export function startProcess(type: ProcessType, env: Record<string, string>): ProcfileProcess {
  ensureBuilt();
  sequence += 1;
  const logFile = join(logDir, `${type}-${sequence}.log`);
  const out = openSync(logFile, 'a');
  // `exec` so that the pid we hold is node's own, as on a dyno.
  const child = spawn('sh', ['-c', `exec ${procfileCommand(type)}`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', out, out],
  });
  if (child.pid === undefined) throw new Error(`could not start ${type}`);
  live.add(child);
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  return {
    type,
    child,
    pid: child.pid,
    logFile,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    log: () => readFileSync(logFile, 'utf8'),
    async stop(signal = 'SIGTERM', killAfterMs = 30_000) {
      const started = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      const result = await ended;
      clearTimeout(timer);
      return { ...result, ms: Date.now() - started };
    },
  };
}

/** Runs `node dist/scripts/users.js ...` with a password on stdin, as an operator would. */
export function usersCommand(env: Record<string, string>, args: string[], password?: string): { status: number | null; output: string } {
  ensureBuilt();
  const result = spawnSync(process.execPath, [join(ROOT, 'dist/scripts/users.js'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    input: password === undefined ? '' : `${password}\n`,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
