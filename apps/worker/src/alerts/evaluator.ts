/**
 * Evaluates the alert rules after each refresh the worker writes (README, "Alerts", "Evaluation"):
 * only the rules indexed under what the refresh touched are read, so the cost grows with the rules
 * concerned; each firing is claimed once (claimAlertFiring) and queued through an outbox, so a
 * worker that dies between the claim and the queue loses nothing.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AlertsConfig } from '../../../../shared/alerts/alerts-config.js';
import { AlertStore } from '../../../../shared/alerts/alert-store.js';
import { indexSubject, type AlertEvent, type ConditionType, type StoredRule } from '../../../../shared/alerts/alert-types.js';
import { enqueueDeliveries, eventIdFor, type DeliveryJobData } from '../../../../shared/alerts/delivery-queue.js';
import { alertFiredChannel, alertKeys } from '../../../../shared/keyspace.js';
import type { Logger } from '../../../../shared/logger.js';
import type { NewsItem, SentimentRecord, TrendingCa, TrendingToken } from '../../../../shared/market-types.js';
import { runScript } from '../../../../shared/redis-scripts.js';
import { snapshotKeys } from '../../../../shared/snapshot-keys.js';
import { matchesOf, type MentionsAt, type RefreshFacts } from './conditions.js';

/** How long a claim is kept: far longer than any retry of one refresh. */
const CLAIM_TTL_SECONDS = 3 * 86_400;
/** Refreshes of mentions kept for the spike condition (its largest window, and one). */
const WINDOW_LENGTH = 21;
/** Firings kept per user for the stream and the MCP tool. */
export const FIRINGS_KEPT = 1000;
/** Jobs per addBulk, event ids per HDEL. */
const SEND_CHUNK = 500;
/** An outbox entry older than this was left by a worker that died or failed between claim and enqueue. */
const OUTBOX_STALE_MS = 30_000;

export interface EvaluatorOptions {
  redis: Redis;
  deliveries: Queue<DeliveryJobData>;
  config: AlertsConfig;
  logger: Logger;
  /** Counts firings by condition type (the worker's counters hash), once per type and evaluation. */
  countFiring?: (type: ConditionType, count: number) => void;
  now?: () => number;
}

/** A rule as the evaluator keeps it between refreshes. */
type CachedRule = Pick<StoredRule, 'id' | 'userId' | 'name' | 'condition' | 'cooldownSeconds'> & { urls: string[] };

/** A rule whose condition is true on this refresh: its event and delivery jobs, before the claim. */
interface Firing {
  rule: CachedRule;
  eventId: string;
  event: AlertEvent;
  jobs: DeliveryJobData[];
}

type Snapshot<T> = { data: T; cachedAt: string };
const parse = <T>(raw: string | null | undefined): T | undefined => (raw ? (JSON.parse(raw) as Snapshot<T>).data : undefined);
/** Each subject under each type, subject by subject: the (type, subject) index entries a refresh touched. */
const pairsOf = (types: readonly ConditionType[], subjects: readonly string[]) =>
  subjects.flatMap((subject) => types.map((type) => [type, subject] as const));

export type AlertEvaluator = ReturnType<typeof createAlertEvaluator>;

export function createAlertEvaluator(options: EvaluatorOptions) {
  const store = new AlertStore(options.redis);
  const now = options.now ?? Date.now;
  const cache = new Map<string, CachedRule[]>();
  let cacheVersion = '';

  /** Evaluates the rules indexed under `pairs`; returns how many fired. */
  async function evaluate(
    refreshId: string,
    refreshedAt: string,
    facts: RefreshFacts,
    pairs: readonly (readonly [ConditionType, string])[],
  ): Promise<number> {
    await recover();
    const rules = await rulesFor(pairs);
    const at = now();
    const firings: Firing[] = [];
    for (const rule of rules) {
      const matches = matchesOf(rule.condition, facts);
      if (matches.length === 0) continue;
      const eventId = eventIdFor(rule.id, refreshId);
      const event: AlertEvent = {
        type: 'alert.fired',
        timestamp: new Date(at).toISOString(),
        data: { firingId: eventId, ruleId: rule.id, ruleName: rule.name, condition: rule.condition, refreshedAt, matches },
      };
      const jobs = rule.urls.map((url, index) => ({ eventId, ruleId: rule.id, channel: index, url, event, firedAtMs: at }));
      firings.push({ rule, eventId, event, jobs });
    }
    // Concurrently: each claim is one script of its own (they are independent).
    const claimed = await Promise.all(firings.map((firing) => claim(firing, refreshId, at)));
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

  /** Claims the rule's firing for this refresh, and puts it in the feed and its jobs in the outbox in the same step; true when it fired. */
  async function claim({ rule, eventId, event, jobs }: Firing, refreshId: string, at: number): Promise<boolean> {
    const claimed = await runScript(
      options.redis,
      'claimAlertFiring',
      [alertKeys.claim(rule.id, refreshId), alertKeys.lastFired(rule.id), alertKeys.outbox(), alertKeys.firings(rule.userId)],
      [at, rule.cooldownSeconds * 1000, CLAIM_TTL_SECONDS, eventId, JSON.stringify(jobs), JSON.stringify(event), FIRINGS_KEPT],
    );
    return claimed === 1;
  }

  /** Queues the jobs (in bulk; their ids make a repeat add nothing), then takes their events out of the outbox. */
  async function send(firings: readonly Pick<Firing, 'eventId' | 'jobs'>[]): Promise<void> {
    const eventIds = firings.map(({ eventId }) => eventId);
    const jobs = firings.flatMap(({ jobs }) => jobs);
    for (let from = 0; from < jobs.length; from += SEND_CHUNK)
      await enqueueDeliveries(options.deliveries, options.config, jobs.slice(from, from + SEND_CHUNK));
    for (let from = 0; from < eventIds.length; from += SEND_CHUNK)
      await options.redis.hdel(alertKeys.outbox(), ...eventIds.slice(from, from + SEND_CHUNK));
  }

  /** Queues what a worker claimed but did not queue; an entry a live worker is still sending is younger than OUTBOX_STALE_MS. */
  async function recover(): Promise<void> {
    const outbox = await options.redis.hgetall(alertKeys.outbox());
    const stale = Object.entries(outbox).flatMap(([eventId, raw]) => {
      const jobs = JSON.parse(raw) as DeliveryJobData[];
      return (jobs[0]?.firedAtMs ?? 0) < now() - OUTBOX_STALE_MS ? [{ eventId, jobs }] : [];
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
  return {
    /** The snapshot bodies a refresh is about to replace (read before its write). */
    async previous(names: readonly ('trending' | 'trending-cas' | 'news' | 'sentiment')[]): Promise<(string | null)[]> {
      return Promise.all(names.map((name) => options.redis.get(snapshotKeys.snapshot(name))));
    },

    async afterTrending(previousBody: string | null, current: readonly TrendingToken[], cachedAt: string): Promise<number> {
      const window = await mentionsWindow(current, cachedAt);
      const facts: RefreshFacts = { trending: { previous: parse<TrendingToken[]>(previousBody), current, window } };
      const pairs = pairsOf(['mentions-spike', 'rank'], ['*', ...current.map((item) => item.token)]);
      return evaluate(`trending:${Date.parse(cachedAt)}`, cachedAt, facts, pairs);
    },

    async afterTrendingCas(previousBody: string | null, current: readonly TrendingCa[], cachedAt: string): Promise<number> {
      const facts: RefreshFacts = { trendingCas: { previous: parse<TrendingCa[]>(previousBody), current } };
      const pairs = pairsOf(['new-contract'], ['*', ...new Set(current.map((item) => item.chain.toLowerCase()))]);
      return evaluate(`trending-cas:${Date.parse(cachedAt)}`, cachedAt, facts, pairs);
    },

    async afterNews(
      previous: { news: string | null; sentiment: string | null },
      posts: readonly NewsItem[],
      sentiment: Readonly<Record<string, SentimentRecord>>,
      cachedAt: string,
    ): Promise<number> {
      const previousPosts = parse<NewsItem[]>(previous.news);
      const facts: RefreshFacts = {
        news: { previousIds: previousPosts ? new Set(previousPosts.map((post) => post.id)) : undefined, current: posts },
        sentiment: { previous: parse<Record<string, SentimentRecord>>(previous.sentiment), current: sentiment },
      };
      const postTokens = new Set(posts.flatMap((post) => post.tokens.map((token) => token.toUpperCase())));
      const pairs = [
        ...pairsOf(['post'], ['*', ...postTokens]),
        ...pairsOf(['sentiment-threshold', 'sentiment-label'], Object.keys(sentiment)),
      ];
      return evaluate(`news:${Date.parse(cachedAt)}`, cachedAt, facts, pairs);
    },

    evaluate,
  };
}
