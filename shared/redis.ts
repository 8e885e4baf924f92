/**
 * One Redis factory per role. The API must fail fast when Redis is down (a 503 within a
 * second, never a hang); BullMQ's blocking connections must instead wait forever. Every role
 * reconnects by itself, to one node (REDIS_URL), to whichever node Sentinel names master, or to
 * the masters of a Redis Cluster (REDIS_CLUSTER_NODES, docs/redis-cluster.md).
 */
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { pino, type Logger } from 'pino';
import type { Config } from './config.js';
import { useKeyPrefix } from './keyspace.js';
import { replyCode } from './redis-errors.js';

export type RedisRole =
  /** API reads and writes: no offline queue, one retry, short command timeout. */
  | 'fast'
  /** BullMQ producers in the API (Queue): fail fast too, but without a command timeout BullMQ's scripts would trip. */
  | 'producer'
  /** BullMQ Worker / QueueEvents and pub/sub subscribers: blocking reads, retried forever. */
  | 'blocking'
  /** Worker-side plain commands: patient, but bounded. */
  | 'worker';

export type RedisConfig = Pick<Config, 'redisUrl' | 'redisTlsInsecure'> &
  Partial<Pick<Config, 'redisSentinel' | 'redisCluster' | 'redisKeyPrefix'>>;

/** Reconnect forever, backing off to at most 1 s, so every role is back within a second or two of Redis. */
const retryStrategy = (attempt: number): number => Math.min(attempt * 100, 1000);

/**
 * A master demoted under us (a failover, or an operator's REPLICAOF) answers writes with
 * READONLY while the socket stays up: reconnect, which asks Sentinel for the new master, and
 * send the command again.
 */
const reconnectOnError = (error: Error): 2 | false => (replyCode(error) === 'READONLY' ? 2 : false);

export function redisOptions(config: RedisConfig, role: RedisRole): RedisOptions {
  const sentinel = config.redisSentinel;
  // REDIS_TLS_INSECURE accepts a self-signed certificate; a rediss:// URL needs no options otherwise.
  const tlsOptions = config.redisTlsInsecure ? { rejectUnauthorized: false } : {};
  const tls = config.redisCluster
    ? config.redisCluster.tls
    : sentinel
      ? sentinel.nodeTls
      : config.redisUrl.startsWith('rediss:') && config.redisTlsInsecure;
  const base: RedisOptions = {
    // BullMQ is tested against RESP2; ioredis 6 defaults to RESP3.
    protocol: 2,
    retryStrategy,
    reconnectOnError,
    connectTimeout: 2000,
    ...(tls ? { tls: tlsOptions } : {}),
    ...(sentinel
      ? {
          sentinels: sentinel.sentinels.map(({ host, port }) => ({ host, port })),
          name: sentinel.masterName,
          ...(sentinel.password ? { sentinelPassword: sentinel.password } : {}),
          ...(sentinel.sentinelUsername ? { sentinelUsername: sentinel.sentinelUsername } : {}),
          ...(sentinel.sentinelTls ? { sentinelTLS: tlsOptions } : {}),
          // The master and replicas Sentinel names: their own ACL user, password and TLS.
          ...(sentinel.nodeUsername ? { username: sentinel.nodeUsername } : {}),
          ...(sentinel.nodePassword ? { password: sentinel.nodePassword } : {}),
          ...(sentinel.nodeTls ? { enableTLSForSentinelMode: true } : {}),
          // No failoverDetector: a +switch-master that arrives while a client is asking Sentinel for
          // the master ends that client for good ("Connection is closed.", ioredis 6). Sentinel
          // kills the clients of every instance it reconfigures, so they reconnect to the new master.
          sentinelRetryStrategy: retryStrategy,
        }
      : {}),
  };
  switch (role) {
    case 'fast':
      return { ...base, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 };
    case 'producer':
      return { ...base, enableOfflineQueue: false, maxRetriesPerRequest: 1 };
    case 'blocking':
      return { ...base, maxRetriesPerRequest: null };
    case 'worker':
      return { ...base, maxRetriesPerRequest: 3, commandTimeout: 5000 };
  }
}

/** Where a client reports its connection going down and coming back. */
export type RedisLogger = Pick<Logger, 'warn' | 'info'>;

let fallbackLogger: Logger | undefined;
/** For callers without a logger of their own (one-off scripts): warnings as JSON on stderr. */
function defaultLogger(): Logger {
  fallbackLogger ??= pino({ name: 'redis', level: 'warn', base: { pid: process.pid } }, pino.destination(2));
  return fallbackLogger;
}

/**
 * `logger` hears of connection errors (a refused connection, a wrong password, a TLS failure)
 * once per change: when the connection is lost or cannot be made, when the reason changes while
 * it is down, and when it is back. A reconnect loop that fails every 100 ms the same way logs once.
 * A config's key prefix names the process's keys (useKeyPrefix).
 */
export function createRedis(config: RedisConfig, role: RedisRole, name: string, logger: RedisLogger = defaultLogger()): Redis {
  if (config.redisKeyPrefix !== undefined) useKeyPrefix(config.redisKeyPrefix);
  const options = { ...redisOptions(config, role), connectionName: `market-signals:${name}` };
  if (config.redisCluster) {
    const cluster = new Cluster(
      config.redisCluster.nodes.map(({ host, port }) => ({ host, port })),
      clusterOptions(options, config.redisCluster.password),
    );
    logConnectionChanges(cluster, name, logger);
    // Cluster has the command methods of Redis (both are one Commander), so every module keeps the one
    // type `Redis` whichever form is configured; what differs per node (INFO, CONFIG, WAIT) asks clusterOf first.
    return cluster as unknown as Redis;
  }
  const client = config.redisSentinel ? new Redis(options) : new Redis(config.redisUrl, options);
  logConnectionChanges(client, name, logger);
  return client;
}

/**
 * The role's options on every node of a cluster. What ioredis takes at the cluster level (the
 * offline queue, the reconnect strategy) moves up; a failover or a slot migration is retried
 * by the client (MOVED/ASK followed, CLUSTERDOWN/TRYAGAIN retried after 100 ms), so no role
 * sees one as an error unless its own retry budget runs out.
 */
function clusterOptions(options: RedisOptions, password: string | undefined): ClusterOptions {
  const { enableOfflineQueue, ...perNode } = options;
  // The cluster reconnects each node itself (clusterRetryStrategy and slot refreshes).
  delete perNode.retryStrategy;
  return {
    ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
    clusterRetryStrategy: retryStrategy,
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    slotsRefreshTimeout: 2000,
    // TLS certificates name the host the node announces; with TLS, connect to that name rather
    // than to the address DNS gives for it (ioredis's advice for managed clusters).
    ...(options.tls ? { dnsLookup: (address: string, callback: (error: null, address: string) => void) => callback(null, address) } : {}),
    redisOptions: { ...perNode, ...(password ? { password } : {}) },
  };
}

/** The Cluster behind a client made by createRedis, or undefined for one node or Sentinel. */
export function clusterOf(redis: Redis): Cluster | undefined {
  const client: unknown = redis;
  return client instanceof Cluster ? client : undefined;
}

/** What an error says about the connection, without anything secret: Redis's and Node's messages name no password. */
function connectionErrorReason(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error.message.replace(/\b(rediss?):\/\/[^@\s]*@/g, '$1://***@');
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

function logConnectionChanges(client: Redis | Cluster, name: string, logger: RedisLogger): void {
  /** The reason last logged while down; undefined while up. */
  let downBecause: string | undefined;
  const down = (reason: string, message: string) => {
    if (reason === downBecause) return;
    downBecause = reason;
    logger.warn({ redis: name, reason }, message);
  };
  // The listener also keeps ioredis from printing each reconnect failure as an unhandled 'error'.
  client.on('error', (error: Error) => down(connectionErrorReason(error), 'redis connection error'));
  client.on('ready', () => {
    if (downBecause === undefined) return;
    downBecause = undefined;
    logger.info({ redis: name }, 'redis connection restored');
  });
  // A cluster reports one node's trouble apart (its slots are retried elsewhere once remapped).
  if (client instanceof Cluster)
    client.on('node error', (error: Error, node: string) => down(`${node}: ${connectionErrorReason(error)}`, 'redis cluster node error'));
}

/**
 * Waits until every replica has the writes made so far on this connection (WAIT), so that what
 * a command acknowledges survives a failover; throws when some replica did not confirm in time.
 * On a cluster, WAIT on each master's connection covers the write wherever its slot put it (a
 * master this client wrote nothing to answers at once).
 */
export async function waitForReplicas(redis: Redis, timeoutMs = 5000): Promise<void> {
  const cluster = clusterOf(redis);
  if (cluster) {
    await Promise.all(cluster.nodes('master').map((node) => waitForReplicas(node, timeoutMs)));
    return;
  }
  const info = await redis.info('replication');
  const replicas = Number(/^connected_slaves:(\d+)/m.exec(info)?.[1] ?? 0);
  if (replicas === 0) return;
  const acknowledged = await redis.wait(replicas, timeoutMs);
  if (acknowledged < replicas) {
    throw new Error(
      `written, but only ${acknowledged} of ${replicas} replicas confirmed it within ${timeoutMs} ms; a failover now could lose it`,
    );
  }
}

/**
 * Closes a client politely (QUIT), or at once when Redis cannot answer. BullMQ never closes a
 * connection it was handed, so whoever created one closes it after the Queue or Worker.
 */
export async function closeRedis(client: Redis): Promise<void> {
  await client.quit().catch(() => client.disconnect());
}
