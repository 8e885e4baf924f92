/**
 * The run's shared Redis as tests that build their own processes need it: the environment for
 * child processes, the configuration for in-process ones, and clients. A three-master cluster
 * under TEST_REDIS=cluster, one node otherwise; emptied by `sharedRedis()`.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../shared/config.js';
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
      const queue = new Queue<T>(name, { ...queueBaseOptions, connection });
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

/** The shared Redis, emptied. */
export async function sharedRedis(): Promise<SharedRedis> {
  if (onTestCluster) {
    const cluster = await sharedTestRedisCluster();
    await cluster.flush();
    return redisFor({ REDIS_CLUSTER_NODES: cluster.seeds });
  }
  const server = await sharedTestRedis();
  const shared = redisFor({ REDIS_URL: server.url });
  const flusher = shared.client();
  await flusher.flushall();
  flusher.disconnect();
  return shared;
}
