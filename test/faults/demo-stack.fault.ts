/**
 * A newcomer's first run: `npm start`, wait for ready, Ctrl-C. The terminal's Ctrl-C is a SIGINT
 * to the foreground process group, so `npm start` runs in a group of its own here and the whole
 * group gets the signal. Every process of the stack must be gone, and the port free, within 5 s,
 * and neither the run nor the shutdown may log a warning or an error.
 */
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { freePort } from '../support/redis-server.js';
import { ROOT } from './support/procfile.js';

const READY_LINE = '[demo] ready';

/** The process and every descendant of it, from `ps`. */
function processTree(root: number): number[] {
  const rows = spawnSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of rows) {
      if (pid !== undefined && ppid !== undefined && tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

describe('npm start, then Ctrl-C', function () {
  // `npm start` compiles first: minutes on a busy two-core machine.
  this.timeout(420_000);
  let npm: ChildProcess | undefined;
  let pids: number[] = [];

  afterEach(() => {
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('when the stack is ready and Ctrl-C arrives, then every process is gone and the port free within 5 s, with no warning or error logged', async () => {
    const port = await freePort();
    let output = '';
    // Its own process group, as a shell gives a foreground job; LOG_LEVEL unset, as a newcomer runs it.
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
    delete env.LOG_LEVEL;
    const started = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    npm = started;
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const npmExited = new Promise<void>((resolve) => started.once('exit', () => resolve()));

    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (output.includes(READY_LINE)) {
          clearInterval(poll);
          resolve();
        } else if (started.exitCode !== null) {
          clearInterval(poll);
          reject(new Error(`npm start exited before ready:\n${output}`));
        }
      }, 100);
    });
    pids = processTree(started.pid ?? 0);
    expect(pids.length, 'npm, the launcher, redis-server, worker, API').to.be.at.least(5);

    const signalledAt = Date.now();
    process.kill(-(started.pid ?? 0), 'SIGINT');
    let goneMs = Number.POSITIVE_INFINITY;
    while (Date.now() - signalledAt < 10_000) {
      if (!pids.some(alive) && (await portIsFree(port))) {
        goneMs = Date.now() - signalledAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await npmExited;
    expect(goneMs, `still alive: ${pids.filter(alive).join(', ')}\n${output}`).to.be.below(5000);
    // pino-pretty's labels, or a raw JSON line at warn (40) and above.
    const bad = output.split('\n').filter((line) => /\b(WARN|ERROR|FATAL)\b|"level":\s*[456]0/.test(line));
    expect(bad, output).to.deep.equal([]);
    npm = undefined;
  });

  after(() => {
    if (npm?.pid && npm.exitCode === null) process.kill(-npm.pid, 'SIGKILL');
  });
});
