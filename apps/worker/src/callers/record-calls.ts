/**
 * The worker's side of the callers (docs/decisions.md#callers): each news refresh records the
 * calls among its posts, each trending refresh the breakouts of its list. Only what the refresh
 * adds is looked at; the scripts (shared/lua/recordCalls.lua, recordBreakouts-2.lua) decide and
 * append in one step. Redis keys: shared/keyspace.ts (`callersKeys`, one slot).
 */
import type { Redis } from 'ioredis';
import type { CallersConfig } from '../../../../shared/callers/callers-config.js';
import { callersKeys } from '../../../../shared/keyspace.js';
import type { NewsItem, TrendingCa, TrendingToken } from '../../../../shared/market-types.js';
import { execChecked } from '../../../../shared/redis-results.js';
import { runScript } from '../../../../shared/redis-scripts.js';
import { DAY_MS } from '../../../../shared/durations.js';
import { dayOf, encodeBreakout, encodeCall, keptAfterDayMs, type CallRecord, type Subject } from '../../../../shared/callers/records.js';
import { mentionedTokens } from '../sentiment/aggregate.js';
import { NEWS_WINDOW_MS } from '../providers/market-provider.js';

const EVM_ADDRESS = /\b0x[0-9a-fA-F]{40}\b/g;
const BASE58_WORD = /\b[1-9A-HJ-NP-Za-km-z]{32,44}\b/g;

/** The contract addresses a post's text names: EVM lower case, Solana base58 (with a digit, so no long word) as written. */
export function mentionedAddresses(text: string): string[] {
  const evm = (text.match(EVM_ADDRESS) ?? []).map((address) => address.toLowerCase());
  const base58 = (text.match(BASE58_WORD) ?? []).filter((word) => /\d/.test(word));
  return [...new Set([...evm, ...base58])];
}

interface Mention {
  id: string;
  publishedMs: number;
  /** The call it would be; encoded only for the few mentions the filter keeps. */
  call: CallRecord;
}

/** Accounts per script call: a refresh's mentions in a few steps, none holding Redis long. */
const ACCOUNTS_PER_CALL = 200;

/** Each account's (lower case) mentions among the posts, in time order, each the call it would be. */
export function mentionsByAccount(posts: readonly NewsItem[], seenMs: number): Map<string, Mention[]> {
  const byAccount = new Map<string, Mention[]>();
  for (const post of posts) {
    const publishedMs = Date.parse(post.publishedAt);
    if (!Number.isFinite(publishedMs) || publishedMs > seenMs) continue;
    const subjects: [Subject, string][] = [
      ...mentionedTokens(post).map((id): [Subject, string] => ['token', id]),
      ...mentionedAddresses(post.text).map((id): [Subject, string] => ['ca', id]),
    ];
    if (subjects.length === 0) continue;
    const account = post.author.toLowerCase();
    let list = byAccount.get(account);
    if (!list) byAccount.set(account, (list = []));
    for (const [subject, id] of subjects) {
      const call: CallRecord = {
        account,
        username: post.author,
        id,
        subject,
        callMs: publishedMs,
        seenMs,
        postId: post.id,
        followers: post.authorFollowers,
        text: post.text,
      };
      list.push({ id: `${subject === 'ca' ? 'c' : 't'}:${id}`, publishedMs, call });
    }
  }
  for (const list of byAccount.values()) list.sort((a, b) => a.publishedMs - b.publishedMs);
  return byAccount;
}

/**
 * A read-only filter first (one HMGET per account, in one pipeline): a refresh sees 72 h of posts
 * and nearly all were looked at before, so only the mentions newer than the account's last are sent
 * to the script (which checks again, in the same step as the append).
 */
async function freshMentions(redis: Redis, byAccount: Map<string, Mention[]>): Promise<[string, Mention[]][]> {
  const all = [...byAccount];
  const read = redis.pipeline();
  for (const [account, mentions] of all) read.hmget(callersKeys.lastMention(account), ...mentions.map((m) => m.id));
  const replies = (await execChecked(read)) as (string | null)[][];
  return all
    .map(([account, mentions], a): [string, Mention[]] => [
      account,
      mentions.filter((mention, i) => {
        const last = replies[a]?.[i];
        return last === null || last === undefined || mention.publishedMs > Number(last);
      }),
    ])
    .filter(([, mentions]) => mentions.length > 0);
}

/** Records the calls among a news refresh's posts; the number recorded. */
export async function recordCalls(redis: Redis, posts: readonly NewsItem[], seenMs: number, config: CallersConfig): Promise<number> {
  const accounts = await freshMentions(redis, mentionsByAccount(posts, seenMs));
  const day = dayOf(seenMs);
  // The first refresh sees 72 h of posts whose accounts' earlier mentions nobody saw: it seeds, it calls nothing.
  await redis.set(callersKeys.callsSince(), seenMs, 'NX');
  const seeding = Number(await redis.get(callersKeys.callsSince())) === seenMs;
  const head = [
    config.quietMs,
    day + DAY_MS + keptAfterDayMs(config.horizonMs),
    seenMs + config.quietMs + NEWS_WINDOW_MS,
    // A post can arrive up to the news window late: its last mention must still be there to silence it.
    seenMs - config.quietMs - NEWS_WINDOW_MS,
    seeding ? 1 : 0,
  ];
  let recorded = 0;
  for (let start = 0; start < accounts.length; start += ACCOUNTS_PER_CALL) {
    const batch = accounts.slice(start, start + ACCOUNTS_PER_CALL);
    const keys = [callersKeys.calls(day), ...batch.map(([account]) => callersKeys.lastMention(account))];
    const args = batch.flatMap(([, mentions]) => [mentions.length, ...mentions.flatMap((m) => [m.id, m.publishedMs, encodeCall(m.call)])]);
    recorded += (await runScript(redis, 'recordCalls', keys, [...head, ...args])) as number;
  }
  return recorded;
}

async function recordTop(
  redis: Redis,
  subject: Subject,
  top: readonly { id: string; chain: string }[],
  atMs: number,
  config: CallersConfig,
) {
  const day = dayOf(atMs);
  const args = top.flatMap(({ id, chain }) => [id, encodeBreakout({ id, subject, atMs, chain })]);
  return (await runScript(
    redis,
    'recordBreakouts',
    [callersKeys.top(subject), callersKeys.breakouts(day)],
    [atMs, config.quietMs, day + DAY_MS + keptAfterDayMs(config.horizonMs), ...args],
  )) as number;
}

/** Records the breakouts of a 24 h trending refresh: the tokens entering its first CALLS_TOP_N places. */
export function recordTokenBreakouts(redis: Redis, list: readonly TrendingToken[], atMs: number, config: CallersConfig): Promise<number> {
  const top = list.slice(0, config.topN).map((item) => ({ id: item.token.trim().replace(/^\$/, '').toUpperCase(), chain: '' }));
  return recordTop(redis, 'token', top, atMs, config);
}

/** Records the breakouts of a trending-CA refresh: every address entering the list. */
export function recordAddressBreakouts(redis: Redis, list: readonly TrendingCa[], atMs: number, config: CallersConfig): Promise<number> {
  const top = list.map((item) => ({
    id: /^0x[0-9a-fA-F]+$/.test(item.address) ? item.address.toLowerCase() : item.address,
    chain: item.chain,
  }));
  return recordTop(redis, 'ca', top, atMs, config);
}
