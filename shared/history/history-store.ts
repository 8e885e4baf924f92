/**
 * History in Redis Streams, written with the snapshots in one atomic step.
 *
 * Why Streams rather than sorted sets: an entry ID is the refresh's cachedAt in ms, so
 * `XRANGE key from to` is a time range, `XREVRANGE key at - COUNT 1` is "the snapshot current
 * at that instant", `XADD ... MINID ~ <cutoff>` trims as it writes, and the same IDs resume a
 * server-sent-events client (`XRANGE key (<last-event-id> +`). Streams pack entries into
 * listpacks with delta-encoded IDs and field names stored once per node, several times smaller
 * than a sorted set of JSON members, whose members must also embed the time to stay unique.
 *
 * The write is one Lua script rather than a MULTI because it must refuse a refresh that is not
 * newer than the last one written (two workers racing, or a clock stepping back): an XADD with a
 * smaller ID fails, and a MULTI would still have applied the snapshot's SETs. The script checks
 * first and writes nothing at all in that case.
 */
import type { Redis } from 'ioredis';
import { SNAPSHOT_CHANNEL, keys } from '../keyspace.js';
import { writeSnapshots, type SnapshotWrite } from '../snapshot-store.js';

/** One entry to append to one stream: its field/value pairs, flattened. */
export interface SeriesEntry {
  key: string;
  fields: readonly (string | number)[];
}

export interface RefreshWrite {
  /** The refresh's cachedAt, ms since epoch: every entry's ID. */
  atMs: number;
  snapshots: readonly SnapshotWrite[];
  /** Plain values kept for the retention window (the news ids). */
  values?: readonly { key: string; value: string }[];
  /** The first entry's stream decides whether this refresh is newer than the last one written. */
  entries: readonly SeriesEntry[];
}

const WRITE_SCRIPT = `
local at, minid, ttl = ARGV[1], ARGV[2], ARGV[3]
local nsnap, nval, channel = tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
local first = 2 * nsnap + nval + 1
local top = redis.call('XREVRANGE', KEYS[first], '+', '-', 'COUNT', 1)
if top[1] and tonumber(string.match(top[1][1], '^(%d+)')) >= tonumber(at) then return 0 end
local a = 7
for i = 1, nsnap do
  redis.call('SET', KEYS[2 * i - 1], ARGV[a + 1])
  redis.call('SET', KEYS[2 * i], ARGV[a + 2])
  a = a + 3
end
for i = 1, nval do
  redis.call('SET', KEYS[2 * nsnap + i], ARGV[a], 'PX', ttl)
  a = a + 1
end
local id = at .. '-0'
for k = first, #KEYS do
  local n = tonumber(ARGV[a])
  local args = { 'XADD', KEYS[k], 'MINID', '~', minid, id }
  for j = 1, 2 * n do args[6 + j] = ARGV[a + j] end
  a = a + 1 + 2 * n
  redis.pcall(unpack(args))
  redis.call('PEXPIRE', KEYS[k], ttl)
end
for i = 1, nsnap do redis.call('PUBLISH', channel, ARGV[7 + 3 * (i - 1)]) end
return 1
`;

/**
 * Writes the snapshots, their history entries and values atomically, then announces the
 * snapshots. Returns false, having written nothing, when a refresh at or after `atMs` is already
 * stored. With `retentionMs` 0 (HISTORY_DAYS=0) only the snapshots are written.
 */
export async function writeRefresh(redis: Redis, write: RefreshWrite, retentionMs: number): Promise<boolean> {
  if (retentionMs <= 0) {
    await writeSnapshots(redis, write.snapshots);
    return true;
  }
  const values = write.values ?? [];
  const keyList: string[] = [];
  const args: (string | number)[] = [write.atMs, write.atMs - retentionMs, retentionMs, write.snapshots.length, values.length, SNAPSHOT_CHANNEL];
  for (const { name, body, version } of write.snapshots) {
    keyList.push(keys.snapshot(name), keys.snapshotVersion(name));
    args.push(name, body, version);
  }
  for (const { key, value } of values) {
    keyList.push(key);
    args.push(value);
  }
  for (const { key, fields } of write.entries) {
    keyList.push(key);
    args.push(fields.length / 2, ...fields);
  }
  const written = await redis.eval(WRITE_SCRIPT, keyList.length, ...keyList, ...args);
  return written === 1;
}

/** A stream entry as read back: its time and its fields as a map. */
export interface HistoryEntry {
  atMs: number;
  /** The full stream ID (`<ms>-<seq>`), for resuming after it. */
  id: string;
  fields: Record<string, string>;
}

type RawEntry = [id: string, fields: string[]];

function toEntry([id, flat]: RawEntry): HistoryEntry {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!;
  return { atMs: Number(id.slice(0, id.indexOf('-'))), id, fields };
}

/** Entries with fromMs <= time <= toMs, oldest first. */
export async function readRange(redis: Redis, key: string, fromMs: number, toMs: number): Promise<HistoryEntry[]> {
  if (toMs < fromMs || toMs < 0) return [];
  const raw = (await redis.xrange(key, String(Math.max(0, Math.floor(fromMs))), String(Math.floor(toMs)))) as RawEntry[];
  return raw.map(toEntry);
}

/** The last entry at or before `atMs`, or null. */
export async function readAtOrBefore(redis: Redis, key: string, atMs: number): Promise<HistoryEntry | null> {
  const raw = (await redis.xrevrange(key, String(Math.floor(atMs)), '-', 'COUNT', 1)) as RawEntry[];
  return raw[0] ? toEntry(raw[0]) : null;
}

/** Entries strictly after the stream ID `afterId`, oldest first, at most `count`. */
export async function readAfter(redis: Redis, key: string, afterId: string, count: number): Promise<HistoryEntry[]> {
  const raw = (await redis.xrange(key, `(${afterId}`, '+', 'COUNT', count)) as RawEntry[];
  return raw.map(toEntry);
}

/** The newest entry's ID, or `0-0` when the stream is empty or absent. */
export async function lastId(redis: Redis, key: string): Promise<string> {
  const raw = (await redis.xrevrange(key, '+', '-', 'COUNT', 1)) as RawEntry[];
  return raw[0]?.[0] ?? '0-0';
}
