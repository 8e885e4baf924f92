/**
 * Snapshots in Redis. The worker writes a snapshot's body and version in one MULTI (a reader
 * never sees half of one) and announces it on a channel; readers poll the small version keys
 * to notice a change they missed while disconnected.
 */
import type { Redis } from 'ioredis';
import { snapshotChannel } from './keyspace.js';
import { snapshotKeys } from './snapshot-keys.js';
import type { SnapshotName } from './snapshot-kinds.js';
import { execChecked } from './redis-results.js';

export interface StoredSnapshot {
  name: SnapshotName;
  /** The serialized `{ data, cachedAt }` JSON. */
  body: Buffer;
  version: string;
}

export interface SnapshotWrite {
  name: SnapshotName;
  body: string;
  version: string;
}

/** Writes several snapshots atomically (news and sentiment go together), then announces them. */
export async function writeSnapshots(redis: Redis, writes: readonly SnapshotWrite[]): Promise<void> {
  const tx = redis.multi();
  for (const { name, body, version } of writes) tx.set(snapshotKeys.snapshot(name), body).set(snapshotKeys.version(name), version);
  for (const { name } of writes) tx.publish(snapshotChannel(), name);
  await execChecked(tx);
}

/** The snapshot, or null when it is absent; a failed read throws (it is not an absence). */
export async function readSnapshot(redis: Redis, name: SnapshotName): Promise<StoredSnapshot | null> {
  const [body, version] = await execChecked(redis.multi().getBuffer(snapshotKeys.snapshot(name)).get(snapshotKeys.version(name)));
  if (!Buffer.isBuffer(body) || typeof version !== 'string') return null;
  return { name, body, version };
}

/**
 * Current versions, `null` where a snapshot is absent; one round trip. One MGET per refresh job's
 * slot (a cluster refuses an MGET across slots), sent together.
 */
export async function readSnapshotVersions(redis: Redis, names: readonly SnapshotName[]): Promise<(string | null)[]> {
  const groups = [...Map.groupBy(names, (name) => snapshotKeys.slotTag(name)).values()];
  const replies = await Promise.all(groups.map((group) => redis.mget(group.map((name) => snapshotKeys.version(name)))));
  const version = new Map<SnapshotName, string | null>();
  groups.forEach((group, g) => group.forEach((name, i) => version.set(name, replies[g]![i] ?? null)));
  return names.map((name) => version.get(name) ?? null);
}
