/**
 * The worker's side of mindshare (docs/decisions.md#d20): counts the tracked accounts' posts per
 * token into their UTC hour and day as the news refreshes see them, each post once, and builds the
 * windows' lists from those buckets. Redis keys: shared/keyspace.ts (`mindshareKeys`, one slot).
 */
import type { Redis } from 'ioredis';
import { mindshareKeys } from '../../../../shared/keyspace.js';
import type { NewsItem } from '../../../../shared/market-types.js';
import { DAY_MS, HOUR_MS } from '../../../../shared/durations.js';
import {
  HOURLY_KEPT_MS,
  MINDSHARE_WINDOWS,
  UNIT_MS,
  WINDOW_BUCKETS,
  bucketStarts,
  mindshareList,
  parseBucket,
  type Bucket,
  type BucketUnit,
  type Buckets,
  type MindshareItem,
  type MindshareWindow,
} from '../../../../shared/mindshare.js';
import { execChecked } from '../../../../shared/redis-results.js';
import { runScript } from '../../../../shared/redis-scripts.js';
import { mentionedTokens, type PostScorer } from '../sentiment/aggregate.js';

/**
 * How long a post's id is remembered after its hour: longer than any refresh can still see it
 * (the news window, 72 h, and an hour's margin), much shorter than the buckets' retention.
 */
export const SEEN_FOR_MS = 73 * HOUR_MS;

const startOf = (ms: number, size: number) => Math.floor(ms / size) * size;

interface Candidate {
  post: NewsItem;
  tokens: string[];
  hourMs: number;
}

/** The posts that could count: naming a token, within retention, not from the future. */
export function candidates(posts: readonly NewsItem[], nowMs: number, retentionMs: number): Candidate[] {
  return posts.flatMap((post) => {
    const publishedMs = Date.parse(post.publishedAt);
    const tokens = mentionedTokens(post);
    if (tokens.length === 0 || !(publishedMs > nowMs - retentionMs) || publishedMs > nowMs + HOUR_MS) return [];
    return [{ post, tokens, hourMs: startOf(publishedMs, HOUR_MS) }];
  });
}

/**
 * A read-only filter first (one SMISMEMBER per hour, in one pipeline): a refresh sees 72 h of
 * posts and nearly all were counted before, so only the new ones are scored and sent to the script.
 */
export async function unseen(redis: Redis, all: readonly Candidate[]): Promise<Candidate[]> {
  const byHour = Map.groupBy(all, (candidate) => candidate.hourMs);
  const check = redis.pipeline();
  for (const [hourMs, group] of byHour) check.smismember(mindshareKeys.seen(hourMs), ...group.map(({ post }) => post.id));
  const replies = (await execChecked(check)) as number[][];
  return [...byHour.values()].flatMap((group, index) => group.filter((_, i) => replies[index]?.[i] !== 1));
}

/** Counts the candidates not counted before (the script checks again, in the same step as the count); the number counted. */
export async function countFresh(redis: Redis, fresh: readonly Candidate[], score: PostScorer, retentionMs: number): Promise<number> {
  let counted = 0;
  for (const [hourMs, group] of Map.groupBy(fresh, (candidate) => candidate.hourMs)) {
    const dayMs = startOf(hourMs, DAY_MS);
    const args = group.flatMap(({ post, tokens }) => [
      post.id,
      post.author,
      String(post.engagementScore),
      String(score(post.text, new Set(tokens))),
      String(tokens.length),
      ...tokens,
    ]);
    // One step per hour (shared/lua/countMentions-3.lua): the check and the count cannot be parted.
    counted += (await runScript(
      redis,
      'countMentions',
      [mindshareKeys.seen(hourMs), mindshareKeys.bucket('hour', hourMs), mindshareKeys.bucket('day', dayMs)],
      [hourMs + HOUR_MS + SEEN_FOR_MS, hourMs + HOUR_MS + HOURLY_KEPT_MS, dayMs + DAY_MS + retentionMs, ...args],
    )) as number;
  }
  return counted;
}

/**
 * Counts the posts not counted before into their hour's and day's buckets. Posts older than
 * retention are left out; an hourly bucket expires when the 24h window and the one before it no
 * longer read it, a daily one `retentionMs` after its day ends.
 */
export async function countMentions(
  redis: Redis,
  posts: readonly NewsItem[],
  score: PostScorer,
  nowMs: number,
  retentionMs: number,
): Promise<{ counted: number }> {
  const all = candidates(posts, nowMs, retentionMs);
  if (all.length === 0) return { counted: 0 };
  const fresh = await unseen(redis, all);
  return { counted: fresh.length === 0 ? 0 : await countFresh(redis, fresh, score, retentionMs) };
}

const READ_PER_BATCH = 24;

/** The buckets every window needs (each window and the one before it), within retention. */
export async function readBuckets(redis: Redis, nowMs: number, retentionMs: number): Promise<Buckets> {
  const wanted = (unit: BucketUnit) => {
    const longest = Math.max(...MINDSHARE_WINDOWS.filter((w) => WINDOW_BUCKETS[w].unit === unit).map((w) => WINDOW_BUCKETS[w].count));
    return bucketStarts(unit, nowMs, 2 * longest)
      .filter((startMs) => startMs + UNIT_MS[unit] > nowMs - retentionMs)
      .map((startMs) => ({ unit, startMs }));
  };
  const keys = [...wanted('hour'), ...wanted('day')];
  // A day of buckets per round trip: a long reply holds the connection for every other command.
  const results: unknown[] = [];
  for (let start = 0; start < keys.length; start += READ_PER_BATCH) {
    const read = redis.pipeline();
    for (const { unit, startMs } of keys.slice(start, start + READ_PER_BATCH)) read.hgetall(mindshareKeys.bucket(unit, startMs));
    results.push(...(await execChecked(read)));
  }
  const buckets = { hour: new Map<number, Bucket>(), day: new Map<number, Bucket>() };
  keys.forEach(({ unit, startMs }, index) => {
    const fields = results[index] as Record<string, string> | undefined;
    if (fields && Object.keys(fields).length > 0) buckets[unit].set(startMs, parseBucket(fields));
  });
  return buckets;
}

export type MindshareLists = Record<MindshareWindow, MindshareItem[]>;

/** Every window's list at `nowMs`. */
export function mindshareLists(buckets: Buckets, nowMs: number): MindshareLists {
  return Object.fromEntries(MINDSHARE_WINDOWS.map((window) => [window, mindshareList(buckets, window, nowMs)])) as MindshareLists;
}
