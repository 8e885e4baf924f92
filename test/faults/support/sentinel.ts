/**
 * Redis high availability on loopback: a master with AOF, one replica, and three sentinels
 * (quorum 2) that fail over one second after the master stops answering. The data nodes ask for
 * a password, as a production deployment's do (REDIS_PASSWORD in `env`). The sentinels are
 * `redis-server --sentinel`, which every Redis install has (not every one ships `redis-sentinel`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, startTestRedis, type TestRedis } from '../../support/redis-server.js';
import { until } from './deployment.js';

export const MASTER_NAME = 'mymaster';
/** The data nodes' password: every client and the sentinels need it. */
export const NODE_PASSWORD = 'data-node-secret';

export interface RedisHA {
  /** The data nodes, by their original role. */
  nodes: TestRedis[];
  /** REDIS_SENTINELS, REDIS_SENTINEL_MASTER and REDIS_PASSWORD for the deployment. */
  env: Record<string, string>;
  /** The node Sentinel currently names master. */
  master(): Promise<TestRedis>;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export async function startRedisHA(): Promise<RedisHA> {
  const auth = ['--requirepass', NODE_PASSWORD, '--masterauth', NODE_PASSWORD];
  const master = await startTestRedis({ appendOnly: true, args: auth });
  const replica = await startTestRedis({ appendOnly: true, args: [...auth, '--replicaof', '127.0.0.1', String(master.port)] });
  const nodes = [master, replica];
  const ports = [await freePort(), await freePort(), await freePort()];
  const sentinels = ports.map((port) => {
    const dir = mkdtempSync(join(tmpdir(), 'ms-sentinel-'));
    const conf = join(dir, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${master.port} 2`,
        `sentinel auth-pass ${MASTER_NAME} ${NODE_PASSWORD}`,
        `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
        `sentinel failover-timeout ${MASTER_NAME} 5000`,
        `sentinel parallel-syncs ${MASTER_NAME} 1`,
        '',
      ].join('\n'),
    );
    // `redis-server --sentinel` is what the redis-sentinel command runs; not every package installs that name.
    const child = spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
    live.add(child);
    child.once('exit', () => live.delete(child));
    return child;
  });
  const ask = async <T>(port: number, command: string[]): Promise<T> => {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    try {
      await client.connect();
      return (await client.call(...(command as [string, ...string[]]))) as T;
    } finally {
      client.disconnect();
    }
  };
  const stop = async () => {
    for (const child of sentinels) child.kill('SIGKILL');
    await Promise.all(nodes.map((node) => node.stop()));
  };
  // Ready when every sentinel knows the replica and the two other sentinels: a failover needs both.
  // A set-up that fails stops what it started: the suite's process must be left with nothing running.
  await until(
    async () => {
      for (const port of ports) {
        const replicas = await ask<unknown[]>(port, ['SENTINEL', 'REPLICAS', MASTER_NAME]);
        const peers = await ask<unknown[]>(port, ['SENTINEL', 'SENTINELS', MASTER_NAME]);
        if (replicas.length < 1 || peers.length < 2) return false;
      }
      return true;
    },
    30_000,
    'sentinels to discover the replica and each other',
  ).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return {
    nodes,
    env: {
      REDIS_SENTINELS: ports.map((port) => `127.0.0.1:${port}`).join(','),
      REDIS_SENTINEL_MASTER: MASTER_NAME,
      REDIS_PASSWORD: NODE_PASSWORD,
    },
    async master() {
      const [, port] = await ask<[string, string]>(ports[0]!, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME]);
      const node = nodes.find((n) => n.port === Number(port));
      if (!node) throw new Error(`sentinel names an unknown master on port ${port}`);
      return node;
    },
    stop,
  };
}
