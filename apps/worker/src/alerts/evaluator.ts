/**
 * Evaluates the alert rules after each refresh the worker writes (README, "Alerts", "Evaluation"):
 * only the rules indexed under what the refresh touched are read, so the cost grows with the rules
 * concerned. Each kind is compared with what it was last evaluated through (not the snapshot the
 * refresh replaced), and that record moves in the same script as the claims (commitAlertEvaluation,
 * docs/decisions.md): overlapping refreshes and a second worker fire a change once, and an
 * evaluation that fails leaves the record where it was, for the next one. Each firing is queued
 * through an outbox, so a worker that dies between the claim and the queue loses nothing.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AlertsConfig } from '../../../../shared/alerts/alerts-config.js';
import { AlertStore } from '../../../../shared/alerts/alert-store.js';
import { indexSubject, type ConditionType } from '../../../../shared/alerts/alert-types.js';
import { enqueueDeliveries, eventIdFor, type DeliveryJobData } from '../../../../shared/alerts/delivery-queue.js';
import { DEFAULT_CALLERS, type CallersConfig } from '../../../../shared/callers/callers-config.js';
import { accountFigures, knownAt, WINDOW_MS, type Known } from '../../../../shared/callers/figures.js';
import { decodeCall, dayOf, type CallRecord } from '../../../../shared/callers/records.js';
import { CallersRecords } from '../../../../shared/callers/records-reader.js';
import { DAY_MS } from '../../../../shared/durations.js';
import { alertFiredChannel, alertKeys, callersKeys } from '../../../../shared/keyspace.js';
import { execChecked } from '../../../../shared/redis-results.js';
import type { Story } from '../../../../shared/stories.js';
import type { Logger } from '../../../../shared/logger.js';
import type { NewsItem, SentimentRecord, TrendingCa, TrendingToken } from '../../../../shared/market-types.js';
import { runScript } from '../../../../shared/redis-scripts.js';
import { snapshotKeys } from '../../../../shared/snapshot-keys.js';
import { matchesOf, type MentionsAt, type NewCall, type RefreshFacts } from './conditions.js';
import { firingOf, type CachedRule, type Firing } from './firing-parts.js';

/** Refreshes of mentions kept for the spike condition (its largest window, and one). */
const WINDOW_LENGTH = 21;
/** Firings kept per user for the stream and the MCP tool: at most this many, none older than FIRINGS_MAX_AGE_MS. */
export const FIRINGS_KEPT = 1000;
export const FIRINGS_MAX_AGE_MS = 7 * 86_400_000;
/** Jobs per addBulk, event ids per HDEL. */
const SEND_CHUNK = 500;
/** An outbox entry older than this was left by a worker that died or failed between claim and enqueue. */
const OUTBOX_STALE_MS = 30_000;
/** Evaluations of one refresh that lost the race to another worker's, before giving up (the next refresh evaluates it). */
const COMMIT_ROUNDS = 8;

export interface EvaluatorOptions {
  redis: Redis;
  deliveries: Queue<DeliveryJobData>;
  config: AlertsConfig;
  logger: Logger;
  /** REFRESH_INTERVAL: a claim lives two of them (a retried refresh comes within one). Default 30 min. */
  refreshIntervalMs?: number;
  /** Counts firings by condition type (the worker's counters hash), once per type and evaluation. */
  countFiring?: (type: ConditionType, count: number) => void;
  /** Counts deliveries dropped over the queue's or a user's cap. */
  countDropped?: (count: number) => void;
  /** What a call, a breakout and a hit are (CALLS_*): the caller condition's figures. Default DEFAULT_CALLERS. */
  callers?: CallersConfig;
  now?: () => number;
}

/** The refresh kinds with an evaluated-through record, and what the next evaluation of each compares against. */
type Through = {
  trending: TrendingToken[];
  'trending-cas': TrendingCa[];
  news: {
    ids: string[];
    sentiment: Record<string, SentimentRecord>;
    /** Each story listed, with the most authors an evaluation saw it with (absent in a record written before stories had alerts). */
    stories?: Record<string, number>;
    /** Each day's calls list (day start ms) and how many of its calls were evaluated: the next evaluation reads past them. */
    calls?: Record<string, number>;
  };
};
/** One evaluation of a refresh against its kind's record: the facts, the record's next body, and the index entries to read. */
interface Evaluation<K extends ThroughKind> {
  facts: RefreshFacts;
  current: Through[K];
  pairs: readonly (readonly [ConditionType, string])[];
}
type ThroughKind = keyof Through;
/** The record a commit moves: the `at` compared against, and the new `at` and body. */
interface Advance {
  kind: ThroughKind;
  expected: string;
  at: string;
  body: string;
}

type Snapshot<T> = { data: T; cachedAt: string };
const parse = <T>(raw: string | null | undefined): T | undefined => (raw ? (JSON.parse(raw) as Snapshot<T>).data : undefined);
const tickerOf = (token: string) => token.trim().replace(/^\$/, '').toUpperCase();
/** As calls spell an address: EVM lower case, base58 as written. */
const addressOf = (address: string) => (/^0x[0-9a-fA-F]+$/.test(address) ? address.toLowerCase() : address);
/** Each subject under each type, subject by subject: the (type, subject) index entries a refresh touched. */
const pairsOf = (types: readonly ConditionType[], subjects: readonly string[]) =>
  subjects.flatMap((subject) => types.map((type) => [type, subject] as const));

export type AlertEvaluator = ReturnType<typeof createAlertEvaluator>;

export function createAlertEvaluator(options: EvaluatorOptions) {
  const store = new AlertStore(options.redis);
  const now = options.now ?? Date.now;
  const cache = new Map<string, CachedRule[]>();
  let cacheVersion = '';

  const callers = options.callers ?? DEFAULT_CALLERS;
  /** The callers' records, read once and then only their new entries (the caller condition's figures); made at its first rule. */
  let records: CallersRecords | undefined;

  const claimTtlSeconds = Math.max(60, Math.ceil((2 * (options.refreshIntervalMs ?? 30 * 60_000)) / 1000));

  /**
   * Evaluates the rules indexed under `pairs`; returns how many fired, or undefined when `advance`
   * was given and its record had moved (nothing fired: the caller evaluates again).
   */
  async function evaluateOnce(
    refreshId: string,
    refreshedAt: string,
    facts: RefreshFacts,
    pairs: readonly (readonly [ConditionType, string])[],
    advance?: Advance,
  ): Promise<number | undefined> {
    await recover();
    const rules = await rulesFor(pairs);
    const at = now();
    const firings: Firing[] = [];
    for (const rule of rules) {
      const matches = matchesOf(rule.condition, facts);
      if (matches.length > 0) firings.push(firingOf(rule, eventIdFor(rule.id, refreshId), refreshedAt, matches, at));
    }
    const claimed = await commit(firings, refreshId, at, advance);
    if (!claimed) return undefined;
    const fired = firings.filter((_, index) => claimed[index]);
    await send(fired);
    const users = new Set(fired.map(({ rule }) => rule.userId));
    await Promise.all([...users].map((userId) => options.redis.publish(alertFiredChannel(), userId)));
    const byType = new Map<ConditionType, number>();
    for (const { rule } of fired) byType.set(rule.condition.type, (byType.get(rule.condition.type) ?? 0) + 1);
    for (const [type, count] of byType) options.countFiring?.(type, count);
    if (fired.length > 0) options.logger.info({ refreshId, rules: rules.length, fired: fired.length }, 'alerts fired');
    return fired.length;
  }

  /** Evaluates facts given as they are (tests, the bench): claims only, no evaluated-through record. */
  async function evaluate(
    refreshId: string,
    refreshedAt: string,
    facts: RefreshFacts,
    pairs: readonly (readonly [ConditionType, string])[],
  ): Promise<number> {
    return (await evaluateOnce(refreshId, refreshedAt, facts, pairs)) ?? 0;
  }

  /**
   * Evaluates a refresh of `kind` against what the kind was last evaluated through (or, the first
   * time, the snapshot the refresh replaced), and moves the record to it in the same step as the
   * claims. A refresh no newer than the record was evaluated already (or is overtaken): nothing.
   */
  async function evaluateKind<K extends ThroughKind>(
    kind: K,
    cachedAt: string,
    fallback: Through[K] | undefined,
    evaluationOf: (previous: Through[K] | undefined) => Promise<Evaluation<K>> | Evaluation<K>,
  ): Promise<number> {
    for (let round = 0; round < COMMIT_ROUNDS; round++) {
      const [expected = null, previousBody = null] = await options.redis.hmget(alertKeys.evaluated(kind), 'at', 'body');
      if (expected !== null && expected >= cachedAt) return 0;
      const previous = expected !== null && previousBody !== null ? (JSON.parse(previousBody) as Through[K]) : fallback;
      // Built each round: what the body records (the calls read) depends on what was evaluated before.
      const { facts, current, pairs } = await evaluationOf(previous);
      const advance = { kind, expected: expected ?? '', at: cachedAt, body: JSON.stringify(current) };
      const fired = await evaluateOnce(`${kind}:${Date.parse(cachedAt)}`, cachedAt, facts, pairs, advance);
      if (fired !== undefined) return fired;
    }
    throw new Error(`alerts: ${kind} ${cachedAt} lost ${COMMIT_ROUNDS} evaluations in a row to other workers`);
  }

  /** Claims the firings and moves the record (when given) in one script; undefined when the record had moved, else fired or not, per firing. */
  async function commit(firings: readonly Firing[], refreshId: string, at: number, advance?: Advance): Promise<boolean[] | undefined> {
    if (firings.length === 0 && !advance) return [];
    const keys = [alertKeys.outbox(), advance ? alertKeys.evaluated(advance.kind) : alertKeys.outbox()];
    const args: (string | number)[] = [
      advance ? 1 : 0,
      advance?.expected ?? '',
      advance?.at ?? '',
      advance?.body ?? '',
      at,
      claimTtlSeconds,
      FIRINGS_KEPT,
      at - FIRINGS_MAX_AGE_MS,
      Math.ceil(FIRINGS_MAX_AGE_MS / 1000),
    ];
    for (const { rule, firingId, events, jobs } of firings) {
      keys.push(alertKeys.claim(rule.id, refreshId), alertKeys.lastFired(rule.id), alertKeys.firings(rule.userId));
      args.push(
        rule.cooldownSeconds * 1000,
        firingId,
        JSON.stringify(jobs),
        events.length,
        ...events.map((event) => JSON.stringify(event)),
      );
    }
    const [committed, ...fired] = (await runScript(options.redis, 'commitAlertEvaluation', keys, args)) as number[];
    return committed === 1 ? fired.map((flag) => flag === 1) : undefined;
  }

  /** Queues the jobs (in bulk; their ids make a repeat add nothing), then takes their events out of the outbox. */
  async function send(firings: readonly Pick<Firing, 'firingId' | 'jobs'>[]): Promise<void> {
    const eventIds = firings.map(({ firingId }) => firingId);
    const jobs = firings.flatMap(({ jobs }) => jobs);
    let dropped = 0;
    for (let from = 0; from < jobs.length; from += SEND_CHUNK)
      dropped += await enqueueDeliveries(options.deliveries, options.redis, options.config, jobs.slice(from, from + SEND_CHUNK));
    for (let from = 0; from < eventIds.length; from += SEND_CHUNK)
      await options.redis.hdel(alertKeys.outbox(), ...eventIds.slice(from, from + SEND_CHUNK));
    if (dropped > 0) {
      options.countDropped?.(dropped);
      options.logger.warn({ dropped }, 'alerts: deliveries dropped over the queue’s or a user’s cap (recorded on their rules)');
    }
  }

  /** Queues what a worker claimed but did not queue; an entry a live worker is still sending is younger than OUTBOX_STALE_MS. */
  async function recover(): Promise<void> {
    const outbox = await options.redis.hgetall(alertKeys.outbox());
    const stale = Object.entries(outbox).flatMap(([firingId, raw]) => {
      const jobs = JSON.parse(raw) as DeliveryJobData[];
      return (jobs[0]?.firedAtMs ?? 0) < now() - OUTBOX_STALE_MS ? [{ firingId, jobs }] : [];
    });
    if (stale.length === 0) return;
    options.logger.warn({ firings: stale.length }, 'alerts: queueing firings claimed but never queued');
    await send(stale);
  }

  /** The rules indexed under `pairs`, read and parsed again only when the rules' version counter changed. */
  async function rulesFor(pairs: readonly (readonly [ConditionType, string])[]): Promise<CachedRule[]> {
    const version = await store.version();
    if (version !== cacheVersion) {
      cache.clear();
      cacheVersion = version;
    }
    const missing = pairs.filter(([type, subject]) => !cache.has(`${type}|${subject}`));
    if (missing.length > 0) {
      const rules = await store.getMany(await store.indexed(missing));
      for (const [type, subject] of missing) cache.set(`${type}|${subject}`, []);
      for (const rule of rules) {
        if (!rule.enabled) continue;
        // What evaluation and the event need, not the secrets or timestamps: 100,000 rules stay small.
        const { id, userId, name, condition, cooldownSeconds } = rule;
        const cached: CachedRule = { id, userId, name, condition, cooldownSeconds, urls: rule.channels.map((channel) => channel.url) };
        cache.get(`${condition.type}|${indexSubject(condition)}`)?.push(cached);
      }
    }
    // A version read before the rules: a change meanwhile bumps it again, and the next refresh reloads.
    return pairs.flatMap(([type, subject]) => cache.get(`${type}|${subject}`) ?? []);
  }
  /**
   * The mentions of the refreshes before this one, newest first, and this one recorded for the
   * next (once: a refresh evaluated twice is not counted twice).
   */
  async function mentionsWindow(current: readonly TrendingToken[], cachedAt: string): Promise<MentionsAt[]> {
    const raw = await options.redis.get(alertKeys.mentionsWindow());
    const stored = raw ? (JSON.parse(raw) as { at: string; m: MentionsAt }[]) : [];
    const before = stored.filter((entry) => entry.at < cachedAt);
    if (!stored.some((entry) => entry.at === cachedAt)) {
      const entry = { at: cachedAt, m: Object.fromEntries(current.map((item) => [item.token, [item.mentions, item.smartMoneyMentions]])) };
      const next = [entry, ...stored].sort((a, b) => b.at.localeCompare(a.at)).slice(0, WINDOW_LENGTH);
      await options.redis.set(alertKeys.mentionsWindow(), JSON.stringify(next));
    }
    return before.map((entry) => entry.m);
  }
  /**
   * The calls recorded since the evaluation `since` records (each day's list read past the calls it
   * evaluated), and each list's length now. Without a record (the first evaluation), no calls: the
   * lengths are recorded for the next. Days from the record's first (at most yesterday) to today:
   * a refresh that overlapped midnight appended to yesterday's list.
   */
  async function callsSince(
    since: Readonly<Record<string, number>> | undefined,
    cachedAt: string,
  ): Promise<{ calls: CallRecord[] | undefined; lengths: Record<string, number> }> {
    const today = dayOf(Date.parse(cachedAt));
    const recorded = Object.keys(since ?? {}).map(Number);
    const first = Math.max(today - DAY_MS, Math.min(today, ...recorded));
    const days: number[] = [];
    for (let day = first; day <= today; day += DAY_MS) days.push(day);
    // One transaction: a call appended between a list's LLEN and LRANGE would be read and still counted as unread.
    const read = options.redis.multi();
    for (const day of days) read.llen(callersKeys.calls(day)).lrange(callersKeys.calls(day), since?.[day] ?? 0, -1);
    const replies = (await execChecked(read)) as (number | string[])[];
    const lengths: Record<string, number> = {};
    const calls: CallRecord[] = [];
    days.forEach((day, index) => {
      const length = replies[2 * index] as number;
      const lines = replies[2 * index + 1] as string[];
      lengths[day] = length;
      // A list shorter than recorded was emptied (Redis lost it): what it holds now is not new.
      if ((since?.[day] ?? 0) <= length) calls.push(...lines.flatMap((line) => decodeCall(line) ?? []));
    });
    return { calls: since ? calls : undefined, lengths };
  }

  /**
   * The new calls with what the caller condition needs, and the (caller, chain) index entries they
   * touch; the figures (every call and breakout of 30 days and more) are read only when a caller
   * rule is indexed under those entries.
   */
  async function newCalls(
    calls: readonly CallRecord[],
    atMs: number,
  ): Promise<{ calls: NewCall[]; pairs: (readonly [ConditionType, string])[] }> {
    if (calls.length === 0) return { calls: [], pairs: [] };
    const [trendingBody, casBody] = await Promise.all(
      (['trending', 'trending-cas'] as const).map((name) => options.redis.get(snapshotKeys.snapshot(name))),
    );
    const topTokens = new Set((parse<TrendingToken[]>(trendingBody) ?? []).slice(0, callers.topN).map((item) => tickerOf(item.token)));
    const casChains = new Map((parse<TrendingCa[]>(casBody) ?? []).map((item) => [addressOf(item.address), item.chain.toLowerCase()]));
    const chainOf = (call: CallRecord): string | null =>
      call.subject === 'token' ? null : (casChains.get(call.id) ?? (call.id.startsWith('0x') ? null : 'solana'));
    const chains = new Set(calls.flatMap((call) => chainOf(call) ?? []));
    const pairs = pairsOf(['caller'], ['*', ...chains]);
    if ((await rulesFor(pairs)).length === 0) return { calls: [], pairs };
    records ??= new CallersRecords(options.redis, callers.horizonMs);
    // Through the day of the latest call: an overlapping newer refresh may have recorded some.
    const held = await records.load(Math.max(atMs, ...calls.map((call) => call.seenMs)));
    // As of the refresh before the call's: the call, and the others that refresh recorded, not yet counted.
    const knowns = new Map<number, Known>();
    const knownBefore = (seenMs: number) => {
      let known = knowns.get(seenMs);
      if (!known) knowns.set(seenMs, (known = knownAt(held.calls, held.breakouts, seenMs - 1, callers.horizonMs)));
      return known;
    };
    const enriched = calls.map((call) => ({
      call,
      figures: accountFigures(knownBefore(call.seenMs), call.account, WINDOW_MS['30d']),
      chain: chainOf(call),
      trending: call.subject === 'token' ? topTokens.has(call.id) : casChains.has(call.id),
    }));
    return { calls: enriched, pairs };
  }

  return {
    /** The snapshot bodies a refresh is about to replace (read before its write). */
    async previous(names: readonly ('trending' | 'trending-cas' | 'news' | 'sentiment')[]): Promise<(string | null)[]> {
      return Promise.all(names.map((name) => options.redis.get(snapshotKeys.snapshot(name))));
    },

    /** `previousBody`: the snapshot the refresh replaced, compared against only when the kind was never evaluated. */
    async afterTrending(previousBody: string | null, current: readonly TrendingToken[], cachedAt: string): Promise<number> {
      const pairs = pairsOf(['mentions-spike', 'rank'], ['*', ...current.map((item) => item.token)]);
      const evaluationOf = async (previous: TrendingToken[] | undefined) => ({
        facts: { trending: { previous, current, window: await mentionsWindow(current, cachedAt) } },
        current: [...current],
        pairs,
      });
      return evaluateKind('trending', cachedAt, parse<TrendingToken[]>(previousBody), evaluationOf);
    },

    async afterTrendingCas(previousBody: string | null, current: readonly TrendingCa[], cachedAt: string): Promise<number> {
      const pairs = pairsOf(['new-contract'], ['*', ...new Set(current.map((item) => item.chain.toLowerCase()))]);
      const evaluationOf = (previous: TrendingCa[] | undefined) => ({
        facts: { trendingCas: { previous, current } },
        current: [...current],
        pairs,
      });
      return evaluateKind('trending-cas', cachedAt, parse<TrendingCa[]>(previousBody), evaluationOf);
    },

    /** `stories`: the refresh's stories (every window's, once each); absent, the story conditions see none and record none. */
    async afterNews(
      previousBodies: { news: string | null; sentiment: string | null },
      posts: readonly NewsItem[],
      sentiment: Readonly<Record<string, SentimentRecord>>,
      cachedAt: string,
      stories: readonly Story[] = [],
    ): Promise<number> {
      const previousPosts = parse<NewsItem[]>(previousBodies.news);
      const previousSentiment = parse<Record<string, SentimentRecord>>(previousBodies.sentiment);
      const fallback = previousPosts && { ids: previousPosts.map((post) => post.id), sentiment: previousSentiment ?? {} };
      const postTokens = new Set(posts.flatMap((post) => post.tokens.map((token) => token.toUpperCase())));
      const storyTokens = new Set(stories.flatMap((story) => story.tokens.map((token) => token.toUpperCase())));
      const basePairs = [
        ...pairsOf(['post'], ['*', ...postTokens]),
        ...pairsOf(['sentiment-threshold', 'sentiment-label'], Object.keys(sentiment)),
        ...pairsOf(['story'], ['*', ...storyTokens]),
      ];
      const evaluationOf = async (previous: Through['news'] | undefined): Promise<Evaluation<'news'>> => {
        const called = await callsSince(previous?.calls, cachedAt);
        const calls = called.calls && (await newCalls(called.calls, Date.parse(cachedAt)));
        const storiesSeen = { ...previous?.stories };
        for (const story of stories) storiesSeen[story.id] = Math.max(storiesSeen[story.id] ?? 0, story.authors);
        // A story no longer listed is dropped from the record: it left the longest window a week after its last post.
        const listed = Object.fromEntries(stories.map((story) => [story.id, storiesSeen[story.id] ?? story.authors]));
        return {
          facts: {
            news: { previousIds: previous ? new Set(previous.ids) : undefined, current: posts },
            sentiment: { previous: previous?.sentiment, current: sentiment },
            stories: { previous: previous?.stories, current: stories },
            ...(calls ? { calls: calls.calls } : {}),
          },
          current: { ids: posts.map((post) => post.id), sentiment: { ...sentiment }, stories: listed, calls: called.lengths },
          pairs: [...basePairs, ...(calls?.pairs ?? [])],
        };
      };
      return evaluateKind('news', cachedAt, fallback, evaluationOf);
    },

    evaluate,
  };
}
