/**
 * What this service needs of its Redis (README, What Redis needs), checked by both processes
 * whenever a connection becomes ready (a Redis that comes back may come back configured
 * differently): `maxmemory-policy noeviction` (refused in production, warned about elsewhere),
 * persistence (a warning), and at start, users under the untagged key names of before (an
 * upgrade that skipped `redis:migrate`; refused everywhere).
 */
import type { Redis } from 'ioredis';
import { keys, untaggedUsersKey } from './keyspace.js';
import type { Logger } from './logger.js';
import { clusterOf, createRedis, type RedisConfig } from './redis.js';

type RedisPolicy = Awaited<ReturnType<typeof readRedisPolicy>>;

async function readRedisPolicy(redis: Redis) {
  // INFO works on managed Redis where CONFIG is renamed away.
  const info = await redis.info();
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  // RDB `save` rules; undefined where CONFIG is disabled (managed Redis).
  const save = await redis.config('GET', 'save').then(
    (reply) => (Array.isArray(reply) ? String(reply[1] ?? '') : undefined),
    () => undefined,
  );
  return { maxmemoryPolicy: field('maxmemory_policy'), aof: field('aof_enabled') === '1', rdbSave: save };
}

type NodePolicy = { node: string | undefined; policy: RedisPolicy };

/** Every master's policy: one entry for one node or Sentinel's master, one per master of a cluster. */
async function readRedisPolicies(redis: Redis): Promise<NodePolicy[]> {
  const cluster = clusterOf(redis);
  if (!cluster) return [{ node: undefined, policy: await readRedisPolicy(redis) }];
  return Promise.all(
    cluster
      .nodes('master')
      .map(async (node) => ({ node: `${node.options.host}:${node.options.port}`, policy: await readRedisPolicy(node) })),
  );
}

/** The first master that would evict, as one line for an operator naming the node on a cluster; undefined when all are fine. */
function firstEvictionProblem(policies: readonly NodePolicy[]): { line: string; policy: RedisPolicy } | undefined {
  const found = policies.find(({ policy }) => policy.maxmemoryPolicy !== undefined && policy.maxmemoryPolicy !== 'noeviction');
  if (!found) return undefined;
  const line = `Redis maxmemory-policy is ${found.policy.maxmemoryPolicy}: it would evict users and job state when memory is full; set it to noeviction`;
  return { line: found.node ? `${line} (cluster node ${found.node})` : line, policy: found.policy };
}

export interface PolicyWatch {
  /** Production refuses a Redis that evicts; elsewhere it is a warning. */
  production: boolean;
  /** Called with one line when production must refuse to run (main() prints it and exits 1). */
  refuse(line: string): void;
}

/** Checks now if connected, and after every (re)connect. */
export function watchRedisPolicy(redis: Redis, logger: Logger, watch: PolicyWatch): void {
  const check = async () => {
    const policies = await readRedisPolicies(redis);
    const eviction = firstEvictionProblem(policies);
    if (eviction && watch.production) watch.refuse(eviction.line);
    else if (eviction) logger.warn({ maxmemoryPolicy: eviction.policy.maxmemoryPolicy }, eviction.line);
    const volatile = policies.find(({ policy }) => !policy.aof && policy.rdbSave === '');
    if (volatile) {
      logger.warn(
        { aof: false, rdbSave: '', ...(volatile.node ? { node: volatile.node } : {}) },
        'Redis persists nothing (no AOF, no RDB snapshots): a restart loses every user',
      );
    }
  };
  const run = () => void check().catch((error: unknown) => logger.debug({ err: String(error) }, 'could not read the Redis policy'));
  redis.on('ready', run);
  // A cluster stays ready through a failover; the promoted replica is a master to check too.
  clusterOf(redis)?.on('+node', () => {
    if (redis.status === 'ready') run();
  });
  if (redis.status === 'ready') run();
}

const unmigrated = () =>
  `Redis holds users under the key names of before Redis Cluster support (${untaggedUsersKey()}) and none under the new ones; copy them first: node dist/scripts/redis-migrate.js (README, Moving to Redis Cluster)`;

/** Users under the untagged names only: an upgrade that skipped `redis:migrate`, whose users could not log in. */
async function holdsUntaggedUsers(redis: Redis): Promise<boolean> {
  const [untagged, tagged] = await Promise.all([redis.exists(untaggedUsersKey()), redis.exists(keys.users())]);
  return untagged === 1 && tagged === 0;
}

/**
 * Before a process opens its other connections: check once, if Redis answers within `waitMs`,
 * so that a refusal is the only line printed (BullMQ would add warnings of its own). A Redis
 * that is down now is checked by watchRedisPolicy when it connects.
 */
export async function checkRedisPolicyFirst(config: RedisConfig, watch: PolicyWatch, waitMs = 3000): Promise<void> {
  const redis = createRedis(config, 'fast', 'policy-check');
  try {
    const ready = await new Promise<boolean>((resolve) => {
      redis.once('ready', () => resolve(true));
      setTimeout(resolve, waitMs, false).unref();
    });
    if (!ready) return;
    const eviction = firstEvictionProblem(await readRedisPolicies(redis));
    if (eviction && watch.production) watch.refuse(eviction.line);
    if (await holdsUntaggedUsers(redis)) watch.refuse(unmigrated());
  } catch {
    // Unreadable now: the watch on the long-lived connection checks again.
  } finally {
    redis.disconnect();
  }
}
