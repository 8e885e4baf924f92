/**
 * The worker's side of mindshare (docs/decisions.md#d20): counts the tracked accounts' posts per
 * token and UTC hour as the news refreshes see them, each post once, and builds the windows'
 * lists from those buckets. Redis keys: shared/keyspace.ts (`mindshareKeys`, one slot).
 */
import type { Redis } from 'ioredis';
import { mindshareKeys } from '../../../../shared/keyspace.js';
import type { NewsItem } from '../../../../shared/market-types.js';
import {
  HOUR_MS,
  MINDSHARE_HOURS,
  MINDSHARE_WINDOWS,
  mindshareList,
  parseBucket,
  windowHours,
  type HourBucket,
  type MindshareItem,
  type MindshareWindow,
} from '../../../../shared/mindshare.js';
import { execChecked } from '../../../../shared/redis-results.js';
import type { PostScorer } from '../sentiment/aggregate.js';

/**
 * How long a post's id is remembered after its hour: longer than any refresh can still see it
 * (the news window, 72 h, and an hour's margin), much shorter than the buckets' retention.
 */
export const SEEN_FOR_MS = 73 * HOUR_MS;

/** A post's tickers as mentions: upper case, without `$`, each once. */
export function mentionedTokens(post: Pick<NewsItem, 'tokens'>): string[] {
  return [...new Set(post.tokens.map((token) => token.trim().replace(/^\$/, '').toUpperCase()).filter((token) => token !== ''))];
}

const hourOf = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/**
 * Counts the posts not counted before into their hour's bucket: a SADD of the post's id to its
 * hour's seen set says whether it is new (so three refreshes that see it count it once, and two
 * workers racing count it once), then one MULTI adds the new ones. Posts older than retention
 * are left out; each bucket expires `retentionMs` after its hour ends.
 */
export async function countMentions(
  redis: Redis,
  posts: readonly NewsItem[],
  score: PostScorer,
  nowMs: number,
  retentionMs: number,
): Promise<{ counted: number }> {
  const candidates = posts.flatMap((post) => {
    const publishedMs = Date.parse(post.publishedAt);
    const tokens = mentionedTokens(post);
    if (tokens.length === 0 || !(publishedMs > nowMs - retentionMs) || publishedMs > nowMs + HOUR_MS) return [];
    return [{ post, tokens, hourMs: hourOf(publishedMs) }];
  });
  if (candidates.length === 0) return { counted: 0 };

  const seen = redis.pipeline();
  for (const { post, hourMs } of candidates) seen.sadd(mindshareKeys.seen(hourMs), post.id);
  for (const hourMs of new Set(candidates.map((candidate) => candidate.hourMs)))
    seen.pexpireat(mindshareKeys.seen(hourMs), hourMs + HOUR_MS + SEEN_FOR_MS);
  const added = await execChecked(seen);

  const fresh = candidates.filter((_, index) => added[index] === 1);
  if (fresh.length === 0) return { counted: 0 };
  const write = redis.multi();
  for (const { post, tokens, hourMs } of fresh) {
    const key = mindshareKeys.bucket(hourMs);
    const polarity = score(post.text, new Set(tokens));
    write.hincrby(key, 't', tokens.length);
    for (const token of tokens) {
      write.hincrby(key, `m:${token}`, 1);
      write.hincrbyfloat(key, `e:${token}`, post.engagementScore);
      write.hincrbyfloat(key, `s:${token}`, polarity);
      write.hset(key, `a:${token}:${post.author}`, 1);
    }
  }
  for (const hourMs of new Set(fresh.map((candidate) => candidate.hourMs)))
    write.pexpireat(mindshareKeys.bucket(hourMs), hourMs + HOUR_MS + retentionMs);
  await execChecked(write);
  return { counted: fresh.length };
}

const READ_HOURS_PER_BATCH = 24;

/** The buckets of the hours `windows` need (each window and the one before it), within retention. */
export async function readBuckets(redis: Redis, nowMs: number, retentionMs: number): Promise<Map<number, HourBucket>> {
  const longest = Math.max(...MINDSHARE_WINDOWS.map((window) => MINDSHARE_HOURS[window]));
  const hours = windowHours(nowMs, 2 * longest).filter((hourMs) => hourMs + HOUR_MS > nowMs - retentionMs);
  // A day of hours per round trip: at 1,000 accounts a 30-day read is ~700k fields, and one batch
  // of it would hold the connection past its command timeout (dev/mindshare-figures.ts).
  const results: unknown[] = [];
  for (let start = 0; start < hours.length; start += READ_HOURS_PER_BATCH) {
    const read = redis.pipeline();
    for (const hourMs of hours.slice(start, start + READ_HOURS_PER_BATCH)) read.hgetall(mindshareKeys.bucket(hourMs));
    results.push(...(await execChecked(read)));
  }
  const buckets = new Map<number, HourBucket>();
  hours.forEach((hourMs, index) => {
    const fields = results[index] as Record<string, string> | undefined;
    if (fields && Object.keys(fields).length > 0) buckets.set(hourMs, parseBucket(hourMs, fields));
  });
  return buckets;
}

export type MindshareLists = Record<MindshareWindow, MindshareItem[]>;

/** Every window's list at `nowMs`. */
export function mindshareLists(buckets: ReadonlyMap<number, HourBucket>, nowMs: number): MindshareLists {
  return Object.fromEntries(MINDSHARE_WINDOWS.map((window) => [window, mindshareList(buckets, window, nowMs)])) as MindshareLists;
}
