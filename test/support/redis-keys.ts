/**
 * KEYS on every master: on a cluster a keyless command reaches one node only, so a test that
 * looks for what is left behind must ask each master (one node: just that node).
 */
import type { Redis } from 'ioredis';
import { clusterOf } from '../../shared/redis.js';

export async function keysEverywhere(redis: Redis, pattern: string): Promise<string[]> {
  const cluster = clusterOf(redis);
  const nodes = cluster ? cluster.nodes('master') : [redis];
  return (await Promise.all(nodes.map((node) => node.keys(pattern)))).flat().sort();
}
