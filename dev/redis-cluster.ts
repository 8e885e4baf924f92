/**
 * A real Redis Cluster on loopback for the tests, the fault suite and the bench: `masters`
 * redis-server processes with `cluster-enabled yes` (and `replicas` replicas per master), joined
 * by `redis-cli --cluster create`, ready once every node reports `cluster_state:ok`. Never a mock.
 */
import { spawn } from 'node:child_process';
import { Cluster, Redis } from 'ioredis';
import { startTestRedis, type TestRedis } from './redis-server.js';

export interface TestRedisClusterOptions {
  /** Default 3, the fewest `redis-cli --cluster create` accepts. */
  masters?: number;
  /** Replicas per master; default 0. */
  replicas?: number;
  /** `cluster-node-timeout`: how long a master may be silent before its replica takes over. Default 2000 ms. */
  nodeTimeoutMs?: number;
}

export interface TestRedisCluster {
  /** Every node, in the order they were given to `--cluster create` (masters first). */
  nodes: TestRedis[];
  /** `127.0.0.1:port,...` of every node: what REDIS_CLUSTER_NODES takes. */
  seeds: string;
  /** A plain cluster client for arranging and asserting (RESP2, as the service's). */
  client(): Cluster;
  /** Empties every master (FLUSHALL is per node on a cluster). */
  flush(): Promise<void>;
  /** The node currently master of `key`'s slot. */
  masterOf(key: string): Promise<TestRedis>;
  /** Waits until every live node reports `cluster_state:ok` and agrees on the masters. */
  waitUntilOk(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestRedisCluster(options: TestRedisClusterOptions = {}): Promise<TestRedisCluster> {
  const masters = options.masters ?? 3;
  const replicas = options.replicas ?? 0;
  const args = [
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    String(options.nodeTimeoutMs ?? 2000),
  ];
  const nodes = await Promise.all(Array.from({ length: masters * (1 + replicas) }, () => startTestRedis({ args })));
  const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
  await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', String(replicas), '--cluster-yes']);

  const nodeClient = (node: TestRedis) => {
    const client = new Redis({
      port: node.port,
      host: '127.0.0.1',
      protocol: 2,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    client.on('error', () => {});
    return client;
  };
  const live = () => nodes.filter((node) => node.pid() !== undefined && isAlive(node.pid()!));
  const ask = async <T>(node: TestRedis, send: (client: Redis) => Promise<T>): Promise<T> => {
    const client = nodeClient(node);
    try {
      await client.connect();
      return await send(client);
    } finally {
      client.disconnect();
    }
  };

  const waitUntilOk = async (timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states: number[] = await Promise.all(
        live().map((node) =>
          ask(node, async (client) => {
            const info = await client.cluster('INFO');
            const masters = String(await client.cluster('NODES'))
              .split('\n')
              .filter((line) => / master /.test(line.replace(/myself,/, '')) && !/fail/.test(line));
            return /cluster_state:ok/.test(info) ? masters.length : -1;
          }).catch(() => -1),
        ),
      );
      if (states.every((count) => count === masters)) return;
      if (Date.now() > deadline) throw new Error(`the cluster did not reach cluster_state:ok within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await waitUntilOk();

  const cluster: TestRedisCluster = {
    nodes,
    seeds: addresses.join(','),
    client() {
      const client = new Cluster(
        nodes.map((node) => ({ host: '127.0.0.1', port: node.port })),
        { redisOptions: { protocol: 2 }, retryDelayOnFailover: 100, retryDelayOnClusterDown: 100 },
      );
      client.on('error', () => {});
      client.on('node error', () => {});
      return client;
    },
    async flush() {
      await Promise.all(
        live().map((node) => ask(node, async (client) => ((await client.role())[0] === 'master' ? client.flushall() : 'OK'))),
      );
    },
    async masterOf(key) {
      const slot = await ask(live()[0]!, (client) => client.cluster('KEYSLOT', key));
      for (const node of live()) {
        const owns = await ask(node, async (client) => {
          if ((await client.role())[0] !== 'master') return false;
          const slots = await client.cluster('SLOTS');
          return slots.some(([from, to, owner]) => slot >= from && slot <= to && owner?.[1] === node.port);
        }).catch(() => false);
        if (owns) return node;
      }
      throw new Error(`no live master serves slot ${slot}`);
    },
    waitUntilOk,
    async stop() {
      await Promise.all(nodes.map((node) => node.stop()));
    },
  };
  return cluster;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${output}`)),
    );
  });
}

/** Runs `redis-cli` (the cluster tools: reshard, failover) and resolves with its output. */
export const redisCli = (args: readonly string[]): Promise<string> => run('redis-cli', args);

let shared: Promise<TestRedisCluster> | undefined;

/** The run's shared cluster (three masters, no replicas), started on first use and killed when the process exits. */
export function sharedTestRedisCluster(): Promise<TestRedisCluster> {
  shared ??= startTestRedisCluster();
  return shared;
}
