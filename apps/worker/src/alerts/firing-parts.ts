/**
 * A firing as it is sent: its matches in parts of at most MATCHES_PER_PART, one event each,
 * all under one firing id (`data.firingId`, `data.part` of `data.parts`), so a receiver gets
 * every match of a refresh that brought many (issue 46: nothing dropped). The first part's
 * `webhook-id` is the firing id itself; part n's is the firing id and `_n`.
 */
import type { AlertEvent, AlertMatch, StoredRule } from '../../../../shared/alerts/alert-types.js';
import type { DeliveryJobData } from '../../../../shared/alerts/delivery-queue.js';

export const MATCHES_PER_PART = 20;

/** A rule as the evaluator keeps it between refreshes. */
export type CachedRule = Pick<StoredRule, 'id' | 'userId' | 'name' | 'condition' | 'cooldownSeconds'> & { urls: string[] };

/** A rule whose condition is true on this refresh: its events and delivery jobs, before the claim. */
export interface Firing {
  rule: CachedRule;
  firingId: string;
  events: AlertEvent[];
  jobs: DeliveryJobData[];
}

export const partEventId = (firingId: string, part: number): string => (part === 1 ? firingId : `${firingId}_${part}`);

export function firingOf(rule: CachedRule, firingId: string, refreshedAt: string, matches: readonly AlertMatch[], at: number): Firing {
  const parts = Math.max(1, Math.ceil(matches.length / MATCHES_PER_PART));
  const timestamp = new Date(at).toISOString();
  const events: AlertEvent[] = [];
  const jobs: DeliveryJobData[] = [];
  for (let part = 1; part <= parts; part++) {
    const slice = matches.slice((part - 1) * MATCHES_PER_PART, part * MATCHES_PER_PART);
    const data = { firingId, ruleId: rule.id, ruleName: rule.name, condition: rule.condition, refreshedAt, part, parts, matches: slice };
    const event: AlertEvent = { type: 'alert.fired', timestamp, data };
    const eventId = partEventId(firingId, part);
    events.push(event);
    rule.urls.forEach((url, channel) => jobs.push({ eventId, ruleId: rule.id, userId: rule.userId, channel, url, event, firedAtMs: at }));
  }
  return { rule, firingId, events, jobs };
}
