/**
 * The run's shared Redis as tests that build their own processes need it: the environment for
 * child processes, the configuration for in-process ones, and clients. A three-master cluster
 * under TEST_REDIS=cluster, one node otherwise. Nothing empties it: each `sharedRedis()` names
 * its keys under a prefix of its own (REDIS_KEY_PREFIX), as BullMQ's own tests give each test a
 * queue of its own, so suites never see each other's keys and may share the server (the Cluster
 * leg shares one cluster between all its processes).
 */
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../shared/config.js';
import { useKeyPrefix } from '../../shared/keyspace.js';
import { queueBaseOptions } from '../../shared/queues.js';
import { createRedis, type RedisRole } from '../../shared/redis.js';
import { onTestCluster, sharedTestRedis, sharedTestRedisCluster } from './redis-server.js';

export interface SharedRedis {
  /** REDIS_URL or REDIS_CLUSTER_NODES. */
  env: Record<string, string>;
  config: Config;
  /** A client of the service's own kind (a cluster client on a cluster); the caller disconnects it. */
  client(role?: RedisRole): Redis;
  /** A BullMQ queue with a connection of its own that closing it closes. */
  queue<T = unknown>(name: string): Queue<T>;
}

const quiet = { warn() {}, info() {} };

export function redisFor(env: Record<string, string>): SharedRedis {
  const config = loadConfig({ NODE_ENV: 'test', ...env });
  return {
    env,
    config,
    client: (role = 'worker') => createRedis(config, role, 'test-client', quiet),
    queue<T>(name: string) {
      const connection = createRedis(config, 'blocking', `test-queue-${name}`, quiet);
      const queue = new Queue<T>(name, { ...queueBaseOptions(), connection });
      queue.on('error', () => {});
      // A connection passed in is the caller's to close: BullMQ leaves it open.
      const close = queue.close.bind(queue);
      queue.close = async () => {
        await close();
        connection.disconnect();
      };
      return queue;
    },
  };
}

let prefixes = 0;
/**
 * Told apart from every other process's, even one that had the same pid: the Cluster leg's
 * processes share one cluster for the whole run, and pids wrap around (32768 here).
 */
const processTag = `${process.pid.toString(36)}${randomBytes(2).toString('hex')}`;

/**
 * Names this process's keys under a prefix no other caller has had, and returns it: for tests
 * that reach the shared Redis with a plain client (`sharedRedis()` does it for the others).
 */
export function freshKeyPrefix(): string {
  prefixes += 1;
  const prefix = `t${processTag}-${prefixes}`;
  useKeyPrefix(prefix);
  return prefix;
}

/** The shared Redis under a fresh key prefix: as empty as a flushed one, for this caller alone. */
export async function sharedRedis(): Promise<SharedRedis> {
  const prefix = { REDIS_KEY_PREFIX: freshKeyPrefix() };
  if (onTestCluster) {
    // The cluster dev/test-shards.ts started once for every file of the run, or one of this process's.
    const seeds = process.env.TEST_REDIS_CLUSTER_NODES ?? (await sharedTestRedisCluster()).seeds;
    return redisFor({ REDIS_CLUSTER_NODES: seeds, ...prefix });
  }
  return redisFor({ REDIS_URL: (await sharedTestRedis()).url, ...prefix });
}
