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

/** Every key of the current prefix, BullMQ's included. */
const everyOwnKey = async (redis: Redis): Promise<string[]> => [
  ...(await ownKeys(redis)),
  ...(await keysEverywhere(redis, `${queuePrefix()}:*`)),
];

/** Deletes every key of the current prefix, BullMQ's included: what FLUSHALL did when a run had one suite per Redis. */
export async function emptyKeyspace(redis: Redis): Promise<void> {
  await Promise.all((await everyOwnKey(redis)).map((key) => redis.del(key)));
}

/**
 * The bytes the current prefix's keys take (MEMORY USAGE of each, BullMQ's included): what a test
 * may call its own in a Redis that other test files share (the Cluster leg's), where used_memory
 * counts their keys too.
 */
export async function ownMemory(redis: Redis): Promise<number> {
  const sizes = await Promise.all((await everyOwnKey(redis)).map((key) => redis.memory('USAGE', key)));
  return sizes.reduce<number>((sum, bytes) => sum + Number(bytes ?? 0), 0);
}
