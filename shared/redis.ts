/**
 * One Redis factory per role. The API must fail fast when Redis is down (a 503 within a
 * second, never a hang); BullMQ's blocking connections must instead wait forever.
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { Config } from './config.js';

export type RedisRole =
  /** API reads and writes: no offline queue, one retry, short command timeout. */
  | 'fast'
  /** BullMQ producers in the API (Queue): fail fast too, but without a command timeout BullMQ's scripts would trip. */
  | 'producer'
  /** BullMQ Worker / QueueEvents and pub/sub subscribers: blocking reads, retried forever. */
  | 'blocking'
  /** Worker-side plain commands: patient, but bounded. */
  | 'worker';

/** Reconnect forever, backing off to at most 2 s, so processes heal when Redis returns. */
const retryStrategy = (attempt: number): number => Math.min(attempt * 100, 2000);

export function redisOptions(config: Pick<Config, 'redisUrl' | 'redisTlsInsecure'>, role: RedisRole): RedisOptions {
  const tls = config.redisUrl.startsWith('rediss:') && config.redisTlsInsecure ? { rejectUnauthorized: false } : undefined;
  const base: RedisOptions = {
    // BullMQ is tested against RESP2; ioredis 6 defaults to RESP3.
    protocol: 2,
    retryStrategy,
    connectTimeout: 2000,
    ...(tls ? { tls } : {}),
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

export function createRedis(config: Pick<Config, 'redisUrl' | 'redisTlsInsecure'>, role: RedisRole, name: string): Redis {
  const client = new Redis(config.redisUrl, { ...redisOptions(config, role), connectionName: `market-signals:${name}` });
  // Errors are reported by the health checks and failed commands; without a listener ioredis
  // prints every reconnect failure as an unhandled 'error'.
  client.on('error', () => {});
  return client;
}

/** True for the ways ioredis and BullMQ fail while Redis is unreachable. */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  return /Stream isn't writeable|enableOfflineQueue|Connection is closed|Command timed out|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH/.test(
    error.message,
  );
}
