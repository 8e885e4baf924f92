/** A user's alert rules, for the routes and the MCP tools: another user's rule is not found, never forbidden. */
import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AlertsConfig } from '../../../../shared/alerts/alerts-config.js';
import { urlRefusal, type Resolver } from '../../../../shared/alerts/address-policy.js';
import { boundedResolver } from '../../../../shared/alerts/bounded-resolver.js';
import { AlertStore, revisionOf, type DeliveryAttempt } from '../../../../shared/alerts/alert-store.js';
import { normalizeCondition, type StoredRule, type WebhookChannel } from '../../../../shared/alerts/alert-types.js';
import { enqueueDeliveries, eventIdFor, type DeliveryJobData } from '../../../../shared/alerts/delivery-queue.js';
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  PreconditionFailedError,
  RateLimitedError,
  UnavailableError,
} from '../../../../shared/errors.js';

export type RuleInput = Pick<StoredRule, 'name' | 'condition' | 'channels' | 'cooldownSeconds' | 'enabled'>;

/** A rule as its owner sees it: never a secret. */
export type PublicRule = Omit<StoredRule, 'secrets' | 'userId'> & { secretRotation: { previousExpiresAt: string } | null };

const RULE_ID = /^alr_[A-Za-z0-9_-]{16}$/;
/** Reads and writes again after losing to another write, at most this many times. */
const WRITE_ROUNDS = 10;

/** A rule's ETag: its revision (every write bumps it). */
export const etagOf = (rule: Pick<StoredRule, 'revision'>): string => `"r${revisionOf(rule)}"`;
/** `If-Match`: `*`, or a list of ETags one of which is the rule's (weak ones compared as strong: revisions are exact). */
const etagMatches = (header: string, rule: StoredRule): boolean =>
  header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etagOf(rule));
const newRuleId = () => `alr_${randomBytes(12).toString('base64url')}`;
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function toPublicRule(rule: StoredRule): PublicRule {
  const { id, name, condition, channels, cooldownSeconds, enabled, disabledReason, createdAt, updatedAt, secrets } = rule;
  const previous = secrets[1];
  const rest = { id, name, condition, channels, cooldownSeconds, enabled, disabledReason, createdAt, updatedAt };
  return { ...rest, secretRotation: previous?.expiresAt ? { previousExpiresAt: previous.expiresAt } : null };
}

export interface AlertsServiceOptions {
  store: AlertStore;
  /** The store's client: the delivery caps are counted there (shared/alerts/delivery-queue.ts). */
  redis: Redis;
  config: AlertsConfig;
  deliveries: Queue<DeliveryJobData>;
  resolve?: Resolver;
  now?: () => Date;
}

export class AlertsService {
  private readonly resolve: Resolver;
  private readonly now: () => Date;

  constructor(private readonly options: AlertsServiceOptions) {
    // c-ares, bounded in time and concurrency, off libuv's thread pool (shared/alerts/bounded-resolver.ts).
    this.resolve = options.resolve ?? boundedResolver({ timeoutMs: options.config.connectTimeoutMs });
    this.now = options.now ?? (() => new Date());
  }

  async create(userId: string, input: RuleInput): Promise<{ rule: PublicRule; secret: string }> {
    await this.checkChannels(input.channels);
    const at = this.now().toISOString();
    const secret = newSecret();
    const rule: StoredRule = {
      id: newRuleId(),
      userId,
      ...input,
      condition: normalizeCondition(input.condition),
      disabledReason: null,
      createdAt: at,
      updatedAt: at,
      secrets: [{ secret, expiresAt: null }],
    };
    if (!(await this.options.store.create({ ...rule, revision: 0 }, this.options.config.maxPerUser))) {
      throw new BadRequestError(`Too many alerts: at most ${this.options.config.maxPerUser} per user`);
    }
    return { rule: toPublicRule(rule), secret };
  }

  async list(userId: string): Promise<PublicRule[]> {
    return (await this.options.store.listOwned(userId)).map(toPublicRule);
  }

  async get(userId: string, ruleId: string): Promise<PublicRule> {
    return toPublicRule(await this.owned(userId, ruleId));
  }

  /** The rule and its ETag (its revision), for GET and a later `If-Match`. */
  async getTagged(userId: string, ruleId: string): Promise<{ rule: PublicRule; etag: string }> {
    const rule = await this.owned(userId, ruleId);
    return { rule: toPublicRule(rule), etag: etagOf(rule) };
  }

  /**
   * Applies the patch over the rule as stored, in one step checked against its revision: with
   * `ifMatch`, only over that revision (412 otherwise); without, again over a newer one when
   * another write came between. A rule deleted meanwhile stays deleted (404).
   */
  async update(userId: string, ruleId: string, patch: Partial<RuleInput>, ifMatch?: string): Promise<{ rule: PublicRule; etag: string }> {
    if (patch.channels) await this.checkChannels(patch.channels);
    const written = await this.write(userId, ruleId, ifMatch, (before) => {
      const after: StoredRule = {
        ...before,
        ...patch,
        condition: patch.condition ? normalizeCondition(patch.condition) : before.condition,
        updatedAt: this.now().toISOString(),
      };
      // Enabling again (or any change by the user) clears why the service had disabled it.
      if (patch.enabled === true) after.disabledReason = null;
      return after;
    });
    if (patch.enabled === true) await this.options.store.recordDeliveredEvent(ruleId);
    return { rule: toPublicRule(written), etag: etagOf(written) };
  }

  async delete(userId: string, ruleId: string): Promise<void> {
    for (let round = 0; round < WRITE_ROUNDS; round++) {
      const outcome = await this.options.store.delete(await this.owned(userId, ruleId));
      if (outcome === 'written') return;
      if (outcome === 'gone') throw new NotFoundError('Alert not found');
    }
    throw new Error(`alert rule ${ruleId}: deletion kept losing to other writes`);
  }

  /**
   * A new secret; the previous one keeps signing (both signatures sent) for
   * ALERTS_SECRET_GRACE_SECONDS, and a secret rotated out before keeps signing until the expiry
   * announced when it was.
   */
  async rotateSecret(userId: string, ruleId: string): Promise<{ rule: PublicRule; secret: string }> {
    const secret = newSecret();
    const written = await this.write(userId, ruleId, undefined, (before) => {
      const at = this.now();
      const expiresAt = new Date(at.getTime() + this.options.config.secretGraceSeconds * 1000).toISOString();
      const [current, ...rotated] = before.secrets;
      const stillSigning = rotated.filter((old) => old.expiresAt !== null && Date.parse(old.expiresAt) > at.getTime());
      const secrets = [{ secret, expiresAt: null }, ...(current ? [{ secret: current.secret, expiresAt }] : []), ...stillSigning];
      return { ...before, secrets, updatedAt: at.toISOString() };
    });
    return { rule: toPublicRule(written), secret };
  }

  /** One write of the user's rule over the revision read (`ifMatch`: that one or 412), again after losing to another write. */
  private async write(
    userId: string,
    ruleId: string,
    ifMatch: string | undefined,
    change: (rule: StoredRule) => StoredRule,
  ): Promise<StoredRule> {
    for (let round = 0; round < WRITE_ROUNDS; round++) {
      const before = await this.owned(userId, ruleId);
      if (ifMatch !== undefined && !etagMatches(ifMatch, before))
        throw new PreconditionFailedError('The alert has changed since it was read (If-Match)');
      const after = change(before);
      const outcome = await this.options.store.replace(before, after);
      if (outcome === 'written') return { ...after, revision: revisionOf(before) + 1 };
      if (outcome === 'gone') throw new NotFoundError('Alert not found');
    }
    throw new Error(`alert rule ${ruleId}: writes kept losing to other writes`);
  }

  async deliveries(userId: string, ruleId: string): Promise<DeliveryAttempt[]> {
    await this.owned(userId, ruleId);
    return this.options.store.attempts(ruleId);
  }

  /** The user's last `count` firings, newest first (what GET /api/alerts/stream sent or would send). */
  recentFirings(userId: string, count: number): Promise<{ id: string; event: unknown }[]> {
    return this.options.store.recentFirings(userId, count);
  }

  /**
   * A test is sent only for an enabled rule (409), within the rule's and the user's budgets
   * (429, Retry-After: the rest of the spent window), and while the queue is under its cap (503,
   * Retry-After: a minute).
   */
  private async admitTest(rule: StoredRule): Promise<void> {
    const { config, store, deliveries } = this.options;
    if (!rule.enabled) throw new ConflictError('Alert rule is disabled: enable it to send a test');
    const counts = await deliveries.getJobCounts('waiting', 'delayed');
    if ((counts.waiting ?? 0) + (counts.delayed ?? 0) >= config.queueMax) {
      throw new UnavailableError('Alert delivery queue is full: try the test again later', 60);
    }
    // Charged last: a test refused for another reason costs nothing of the budget.
    const waitMs = await store.chargeTestBudget(rule.userId, rule.id, {
      perRule: config.testsPerRulePerMinute,
      ruleWindowMs: 60_000,
      perUser: config.testsPerUserPerHour,
      userWindowMs: 3_600_000,
    });
    if (waitMs > 0) {
      const budget = `${config.testsPerRulePerMinute} per rule per minute, ${config.testsPerUserPerHour} per user per hour`;
      throw new RateLimitedError(`Test budget spent: ${budget}`, waitMs / 1000);
    }
  }

  /** Queues an `alert.test` event to every channel of the rule; returns its id. */
  async sendTest(userId: string, ruleId: string): Promise<string> {
    const rule = await this.owned(userId, ruleId);
    await this.admitTest(rule);
    const at = this.now();
    const eventId = eventIdFor(rule.id, `test:${at.getTime()}:${randomBytes(6).toString('hex')}`);
    const event = {
      type: 'alert.test' as const,
      timestamp: at.toISOString(),
      data: {
        firingId: eventId,
        ruleId: rule.id,
        ruleName: rule.name,
        condition: rule.condition,
        refreshedAt: at.toISOString(),
        part: 1,
        parts: 1,
        matches: [],
      },
    };
    await enqueueDeliveries(
      this.options.deliveries,
      this.options.redis,
      this.options.config,
      rule.channels.map((channel, index) => ({
        eventId,
        ruleId: rule.id,
        userId: rule.userId,
        channel: index,
        url: channel.url,
        event,
        firedAtMs: at.getTime(),
      })),
    );
    return eventId;
  }

  private async owned(userId: string, ruleId: string): Promise<StoredRule> {
    const rule = RULE_ID.test(ruleId) ? await this.options.store.getOwned(userId, ruleId) : undefined;
    if (!rule) throw new NotFoundError('Alert not found');
    return rule;
  }

  private async checkChannels(channels: readonly WebhookChannel[]): Promise<void> {
    const { requireHttps, allowLoopback } = this.options.config;
    for (const [index, channel] of channels.entries()) {
      const refusal = await urlRefusal(channel.url, { requireHttps, allowLoopback, resolve: this.resolve });
      if (refusal) throw new BadRequestError(`Invalid field: channels.${index}.url ${refusal}`);
    }
  }
}
