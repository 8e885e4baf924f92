/**
 * KEYS on every master: on a cluster a keyless command reaches one node only, so a test that
 * looks for what is left behind must ask each master (one node: just that node).
 */
import type { Redis } from 'ioredis';
import { keyPrefix, queuePrefix } from '../../shared/keyspace.js';
import { clusterOf } from '../../shared/redis.js';

export async function keysEverywhere(redis: Redis, pattern: string): Promise<string[]> {
  const cluster = clusterOf(redis);
  const nodes = cluster ? cluster.nodes('master') : [redis];
  return (await Promise.all(nodes.map((node) => node.keys(pattern)))).flat().sort();
}

/** How many of these keys exist, asked one by one (EXISTS of several keys must stay in one slot on a cluster). */
export async function existing(redis: Redis, keys: readonly string[]): Promise<number> {
  return (await Promise.all(keys.map((key) => redis.exists(key)))).reduce((sum, found) => sum + found, 0);
}

/** GET of each key (an MGET across slots fails on a cluster). */
export function getEach(redis: Redis, keys: readonly string[]): Promise<(string | null)[]> {
  return Promise.all(keys.map((key) => redis.get(key)));
}

/** The keys of the current prefix (shared/keyspace.ts) matching `pattern` (what follows `<prefix>:`), on every master. */
export const ownKeys = (redis: Redis, pattern = '*'): Promise<string[]> => keysEverywhere(redis, `${keyPrefix()}:${pattern}`);

/** Deletes every key of the current prefix, BullMQ's included: what FLUSHALL did when a run had one suite per Redis. */
export async function emptyKeyspace(redis: Redis): Promise<void> {
  const found = [...(await ownKeys(redis)), ...(await keysEverywhere(redis, `${queuePrefix()}:*`))];
  await Promise.all(found.map((key) => redis.del(key)));
}
