/**
 * A real redis-server of the tests' (and the dev tools', bench's) own, on a free port: never the machine's Redis, never a
 * mock. One is shared by the whole run; outage tests start private ones they can stop, restart
 * with or without their data, or freeze.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

export interface TestRedisOptions {
  /** Append-only persistence (fsync every second) in a directory of its own, as production runs it. */
  appendOnly?: boolean;
  /** Extra redis-server arguments (`--replicaof`, `--maxmemory-policy` ...). */
  args?: readonly string[];
  /** A fixed port (a replica set up before its master exists); default a free one. */
  port?: number;
}

export interface TestRedis {
  url: string;
  port: number;
  /** Where its data lives (AOF directory), when it persists. */
  dir: string;
  /** Stops the server: SIGKILL by default (an outage), SIGTERM for a clean shutdown that writes its data. */
  stop(signal?: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  /** Starts it again on the same port, with its data (when persistent) unless `empty`. */
  start(options?: { empty?: boolean }): Promise<void>;
  /** SIGSTOP: the server keeps its connections but answers nothing (a host that vanished). */
  freeze(): void;
  thaw(): void;
  /** The process id (tests kill it their own way). */
  pid(): number | undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export async function startTestRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'ms-test-redis-'));
  const persistence = options.appendOnly ? ['--appendonly', 'yes', '--appendfsync', 'everysec'] : ['--appendonly', 'no'];
  let child: ChildProcess | undefined;
  const start = async ({ empty = false } = {}) => {
    if (empty) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
    }
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        ...persistence,
        '--maxmemory-policy',
        'noeviction',
        ...(options.args ?? []),
      ],
      { stdio: 'ignore' },
    );
    const started = child;
    // Not a reason for the test process to stay: the exit hook above kills what is still running.
    started.unref();
    live.add(started);
    started.once('exit', () => live.delete(started));
    started.once('error', (error) => {
      throw new Error(`cannot start redis-server (is it installed?): ${error.message}`);
    });
    await waitForPing(port);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    async stop(signal = 'SIGKILL') {
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      // Unref'd at start: waiting for its exit must hold the event loop, or a caller whose last
      // handle this was (the bench's end) exits 13 with the await unsettled.
      current.ref();
      current.kill('SIGCONT');
      current.kill(signal);
      await exited;
    },
    start,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    pid: () => child?.pid,
  };
}

/** Resolves once redis-server on `port` answers PING (its data loaded), or asks for a password (it is up). */
export async function waitForPing(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // No ready check and RESP2 (no HELLO): PING itself answers LOADING while the data loads, NOAUTH (up) when a password is required.
    const client = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      enableReadyCheck: false,
      protocol: 2,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return;
    } catch (error) {
      client.disconnect();
      if (error instanceof Error && error.message.startsWith('NOAUTH')) return;
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

let shared: Promise<TestRedis> | undefined;

/** The run's shared Redis, started on first use and killed when the process exits. */
export function sharedTestRedis(): Promise<TestRedis> {
  shared ??= startTestRedis();
  return shared;
}
