/**
 * History in Redis Streams (why Streams: README, History and live updates), written with the
 * snapshots by one Lua script (`shared/lua/writeRefresh.lua`) rather than a MULTI, because it must
 * refuse a refresh that is not newer than the last one written (two workers racing, a clock
 * stepping back): an XADD with a smaller ID fails, and a MULTI would still have applied the
 * snapshot's SETs. The script checks first and then writes nothing; any other failure fails the write.
 */
import type { Redis } from 'ioredis';
import { snapshotChannel } from '../keyspace.js';
import { snapshotKeys } from '../snapshot-keys.js';
import { runScript } from '../redis-scripts.js';
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

/**
 * Writes the snapshots, their history entries and values atomically, then announces the
 * snapshots. Returns false, having written nothing, when a refresh at or after `atMs` is already
 * stored; throws, having written nothing, when any write would fail. With `retentionMs` 0 (HISTORY_DAYS=0) only the snapshots are written.
 */
export async function writeRefresh(redis: Redis, write: RefreshWrite, retentionMs: number): Promise<boolean> {
  if (retentionMs <= 0) {
    await writeSnapshots(redis, write.snapshots);
    return true;
  }
  const values = write.values ?? [];
  const keyList: string[] = [];
  const args: (string | number)[] = [
    write.atMs,
    write.atMs - retentionMs,
    retentionMs,
    write.snapshots.length,
    values.length,
    snapshotChannel(),
  ];
  for (const { name, body, version } of write.snapshots) {
    keyList.push(snapshotKeys.snapshot(name), snapshotKeys.version(name));
    args.push(name, body, version);
  }
  for (const { key, value } of values) {
    keyList.push(key);
    args.push(value);
  }
  // One entry per stream and refresh (its ID is the refresh's time): a key listed twice (two
  // spellings of one token upstream) keeps its first entry, as a second XADD with the same ID would fail.
  const streams = new Set<string>();
  for (const { key, fields } of write.entries) {
    if (streams.has(key)) continue;
    streams.add(key);
    keyList.push(key);
    args.push(fields.length / 2, ...fields);
  }
  const written = await runScript(redis, 'writeRefresh', keyList, args);
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

/** The newest `count` entries with fromMs <= time <= toMs, oldest first. */
export async function readNewestInRange(redis: Redis, key: string, fromMs: number, toMs: number, count: number): Promise<HistoryEntry[]> {
  if (toMs < fromMs || toMs < 0) return [];
  const raw = (await redis.xrevrange(key, String(Math.floor(toMs)), String(Math.max(0, Math.floor(fromMs))), 'COUNT', count)) as RawEntry[];
  return raw.reverse().map(toEntry);
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

/** The newest `count` entries strictly after the stream ID `afterId`, newest first. */
export async function readNewestAfter(redis: Redis, key: string, afterId: string, count: number): Promise<HistoryEntry[]> {
  const raw = (await redis.xrevrange(key, '+', `(${afterId}`, 'COUNT', count)) as RawEntry[];
  return raw.map(toEntry);
}

/** The newest entry's ID, or `0-0` when the stream is empty or absent. */
export async function lastId(redis: Redis, key: string): Promise<string> {
  const raw = (await redis.xrevrange(key, '+', '-', 'COUNT', 1)) as RawEntry[];
  return raw[0]?.[0] ?? '0-0';
}
