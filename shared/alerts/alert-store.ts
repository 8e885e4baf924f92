/**
 * Alert rules in Redis (slot `{alerts}`, shared/keyspace.ts): every key of one rule is in one
 * slot, so each change is one MULTI or script, on Cluster too.
 */
import type { Redis } from 'ioredis';
import { alertKeys } from '../keyspace.js';
import { runScript } from '../redis-scripts.js';
import { execChecked } from '../redis-results.js';
import { indexSubject, type ConditionType, type StoredRule } from './alert-types.js';

/** One delivery attempt as GET /api/alerts/{id}/deliveries shows it. */
export interface DeliveryAttempt {
  /** The event's id (its `webhook-id`). */
  eventId: string;
  type: 'alert.fired' | 'alert.test';
  url: string;
  attempt: number;
  at: string;
  /** `delivered`, `retrying` (will be tried again), `failed` (given up) or `dropped` (not sent: the URL was removed from the rule, or the queue was over its cap). */
  outcome: 'delivered' | 'retrying' | 'failed' | 'dropped';
  /** The receiver's HTTP status; null when none came (network error, timeout, refused address). */
  status: number | null;
  latencyMs: number;
  error: string | null;
}

/** How many attempts a rule's log keeps. */
export const DELIVERY_LOG_LENGTH = 50;

const indexKey = (rule: Pick<StoredRule, 'condition'>) => alertKeys.index(rule.condition.type, indexSubject(rule.condition));

/** A rule's revision: 0 for one stored before revisions were. */
export const revisionOf = (rule: Pick<StoredRule, 'revision'>): number => rule.revision ?? 0;

/** What a write checked against the rule's revision did: wrote, found the rule gone, or found another write had come first. */
export type WriteOutcome = 'written' | 'gone' | 'stale';
const outcomeOf = (reply: unknown): WriteOutcome => (reply === 1 ? 'written' : reply === 0 ? 'gone' : 'stale');
/** Reads and writes again after losing to another write, at most this many times. */
const WRITE_ROUNDS = 10;

export class AlertStore {
  constructor(private readonly redis: Redis) {}

  /** Stores a new rule; false when its user holds `maxPerUser` rules already. */
  async create(rule: StoredRule, maxPerUser: number): Promise<boolean> {
    const stored = await runScript(
      this.redis,
      'createAlertRule',
      [alertKeys.rule(rule.id), alertKeys.userRules(rule.userId), indexKey(rule), alertKeys.version()],
      [rule.id, JSON.stringify({ ...rule, revision: revisionOf(rule) }), maxPerUser],
    );
    return stored === 1;
  }

  async get(ruleId: string): Promise<StoredRule | undefined> {
    const raw = await this.redis.get(alertKeys.rule(ruleId));
    return raw === null ? undefined : (JSON.parse(raw) as StoredRule);
  }

  /** A rule of this user; undefined for another user's rule as for none (the API answers 404 to both). */
  async getOwned(userId: string, ruleId: string): Promise<StoredRule | undefined> {
    const rule = await this.get(ruleId);
    return rule?.userId === userId ? rule : undefined;
  }

  async getMany(ruleIds: readonly string[]): Promise<StoredRule[]> {
    if (ruleIds.length === 0) return [];
    const rules: StoredRule[] = [];
    // MGET in chunks: one reply of 100,000 rules would hold the event loop.
    for (let at = 0; at < ruleIds.length; at += 1000) {
      const raws = await this.redis.mget(ruleIds.slice(at, at + 1000).map((id) => alertKeys.rule(id)));
      for (const raw of raws) if (raw) rules.push(JSON.parse(raw) as StoredRule);
    }
    return rules;
  }

  async listOwned(userId: string): Promise<StoredRule[]> {
    const ids = await this.redis.smembers(alertKeys.userRules(userId));
    const rules = await this.getMany(ids);
    return rules
      .filter((rule) => rule.userId === userId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  /**
   * Writes a changed rule (its revision one more than `before`'s), moving it between indexes when
   * its condition's subject changed, only if the stored rule is still `before`'s revision.
   */
  async replace(before: StoredRule, after: StoredRule): Promise<WriteOutcome> {
    const keys = [alertKeys.rule(after.id), alertKeys.userRules(before.userId), alertKeys.version(), indexKey(before), indexKey(after)];
    const next = { ...after, revision: revisionOf(before) + 1 };
    return outcomeOf(await runScript(this.redis, 'writeAlertRule', keys, ['replace', revisionOf(before), after.id, JSON.stringify(next)]));
  }

  /**
   * Applies `change` to the rule as stored, again on a fresh read when another write came between;
   * the rule as written, or undefined when it is gone or `change` returns undefined (nothing to do).
   */
  async update(ruleId: string, change: (rule: StoredRule) => StoredRule | undefined): Promise<StoredRule | undefined> {
    for (let round = 0; round < WRITE_ROUNDS; round++) {
      const before = await this.get(ruleId);
      const after = before && change(before);
      if (!before || !after) return undefined;
      const outcome = await this.replace(before, after);
      if (outcome === 'gone') return undefined;
      if (outcome === 'written') return { ...after, revision: revisionOf(before) + 1 };
    }
    throw new Error(`alert rule ${ruleId}: ${WRITE_ROUNDS} writes in a row lost to other writes`);
  }

  /**
   * Writes a rule from a backup back as it was (same id, same secrets: its receivers verify as
   * before), in place of the rule of that id if any; no maximum, a restore brings back what was.
   */
  async restore(rule: StoredRule): Promise<void> {
    const before = await this.get(rule.id);
    const batch = this.redis
      .multi()
      .set(alertKeys.rule(rule.id), JSON.stringify({ ...rule, revision: revisionOf(before ?? rule) + 1 }))
      .sadd(alertKeys.userRules(rule.userId), rule.id)
      .sadd(indexKey(rule), rule.id)
      .incr(alertKeys.version());
    if (before && indexKey(before) !== indexKey(rule)) batch.srem(indexKey(before), rule.id);
    if (before && before.userId !== rule.userId) batch.srem(alertKeys.userRules(before.userId), rule.id);
    await execChecked(batch);
  }

  /** Deletes the rule with its index entry, cooldown, attempt log and failed-event count, if it is still `rule`'s revision. */
  async delete(rule: StoredRule): Promise<WriteOutcome> {
    const keys = [
      alertKeys.rule(rule.id),
      alertKeys.userRules(rule.userId),
      alertKeys.version(),
      indexKey(rule),
      indexKey(rule),
      alertKeys.lastFired(rule.id),
      alertKeys.deliveries(rule.id),
      alertKeys.failedEvents(rule.id),
    ];
    return outcomeOf(await runScript(this.redis, 'writeAlertRule', keys, ['delete', revisionOf(rule), rule.id]));
  }

  /**
   * Deletes everything of a user's alerts: each rule (checked against its revision, so a write
   * racing this one cannot bring it back), then the user's rule set, firings stream and count of
   * outstanding deliveries. A rule's claims name only the rule and expire within two refresh intervals.
   */
  async removeUser(userId: string): Promise<void> {
    for (let round = 0; round < WRITE_ROUNDS; round++) {
      const ids = await this.redis.smembers(alertKeys.userRules(userId));
      const rules = (await this.getMany(ids)).filter((rule) => rule.userId === userId);
      const outcomes = await Promise.all(rules.map((rule) => this.delete(rule)));
      if (outcomes.every((outcome) => outcome !== 'stale')) break;
    }
    // Its queued deliveries go with its rules: the delivery worker drops a job whose rule is gone.
    await this.redis.del(alertKeys.userRules(userId), alertKeys.firings(userId), alertKeys.outstanding(userId));
  }

  /** The ids of the rules indexed under each (type, subject) pair asked for, deduplicated. */
  async indexed(pairs: readonly (readonly [ConditionType, string])[]): Promise<string[]> {
    if (pairs.length === 0) return [];
    const batch = this.redis.pipeline();
    for (const [type, subject] of pairs) batch.smembers(alertKeys.index(type, subject));
    const replies = (await execChecked(batch)) as string[][];
    return [...new Set(replies.flat())];
  }

  /** The rules' version: any change of any rule bumps it. */
  async version(): Promise<string> {
    return (await this.redis.get(alertKeys.version())) ?? '0';
  }

  /** The user's last `count` firings (the feed's stream), newest first: the entry id and the event as sent. */
  async recentFirings(userId: string, count: number): Promise<{ id: string; event: unknown }[]> {
    const entries = await this.redis.xrevrange(alertKeys.firings(userId), '+', '-', 'COUNT', count);
    return entries.map(([id, fields]) => ({ id, event: JSON.parse(fields[fields.indexOf('event') + 1] ?? '{}') as unknown }));
  }

  /** Logs an attempt; a delivered one also ends the rule's run of failed events (recordDeliveredEvent), in the same step. */
  async recordAttempt(ruleId: string, attempt: DeliveryAttempt): Promise<void> {
    const batch = this.redis
      .multi()
      .lpush(alertKeys.deliveries(ruleId), JSON.stringify(attempt))
      .ltrim(alertKeys.deliveries(ruleId), 0, DELIVERY_LOG_LENGTH - 1);
    if (attempt.outcome === 'delivered') batch.del(alertKeys.failedEvents(ruleId));
    await execChecked(batch);
  }

  async attempts(ruleId: string): Promise<DeliveryAttempt[]> {
    const raws = await this.redis.lrange(alertKeys.deliveries(ruleId), 0, DELIVERY_LOG_LENGTH - 1);
    return raws.map((raw) => JSON.parse(raw) as DeliveryAttempt);
  }

  /**
   * Counts an event that failed for good; at `limit` in a row, or when `disableNow`, the rule is
   * disabled with the reason. Returns true when it was disabled now.
   */
  async recordFailedEvent(ruleId: string, reason: string, limit: number, disableNow: boolean): Promise<boolean> {
    const failures = await this.redis.incr(alertKeys.failedEvents(ruleId));
    if (failures < limit && !disableNow) return false;
    const why = disableNow ? reason : `${failures} events in a row could not be delivered; the last: ${reason}`;
    // Over the rule as stored now: a PATCH meanwhile is kept, and a deleted rule stays deleted.
    const disabled = await this.update(ruleId, (rule) =>
      rule.enabled ? { ...rule, enabled: false, disabledReason: why, updatedAt: new Date().toISOString() } : undefined,
    );
    return disabled !== undefined;
  }

  async recordDeliveredEvent(ruleId: string): Promise<void> {
    await this.redis.del(alertKeys.failedEvents(ruleId));
  }

  /**
   * Takes one test send from the rule's budget and its user's (both checked first, then both
   * charged, in one script); returns 0 when taken, else the ms until the spent window ends.
   */
  async chargeTestBudget(userId: string, ruleId: string, budget: TestBudget): Promise<number> {
    const keys = [alertKeys.testBudgetRule(ruleId), alertKeys.testBudgetUser(userId)];
    const args = [budget.perRule, budget.ruleWindowMs, budget.perUser, budget.userWindowMs];
    return Number(await runScript(this.redis, 'chargeAlertTestBudget', keys, args));
  }
}

/** How many test sends a rule and a user may make per window. */
export interface TestBudget {
  perRule: number;
  ruleWindowMs: number;
  perUser: number;
  userWindowMs: number;
}
