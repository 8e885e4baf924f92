/**
 * A real redis-server of the tests' own, on a free port: never the machine's Redis, never a
 * mock. One is shared by the whole run; outage tests start private ones they can stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface TestRedis {
  url: string;
  port: number;
  /** Stops the server (SIGKILL: an outage, not a shutdown). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
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

export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
      { stdio: 'ignore' },
    );
    child.once('error', (error) => {
      throw new Error(`cannot start redis-server (is it installed?): ${error.message}`);
    });
    await waitForPing(port);
  };
  await start();
  const cleanup = () => child?.kill('SIGKILL');
  process.once('exit', cleanup);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child?.kill('SIGKILL');
      await exited;
    },
    start,
  };
}

async function waitForPing(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return;
    } catch {
      client.disconnect();
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}`);
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
