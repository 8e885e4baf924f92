/**
 * Issue 46, items 1 and 2: every new post reaches an any-post rule's receiver exactly once,
 * whatever the refreshes do: two evaluators (two workers) evaluating overlapping refreshes at
 * once (a forced one beside a scheduled one, both having read the same replaced snapshot), an
 * evaluation that fails on a Redis error and the one after it, and a refresh bringing more posts
 * than one event holds. Real Redis, the stack's delivery worker, a verifying loopback receiver.
 */
import { expect } from 'chai';
import type { Queue } from 'bullmq';
import type { AlertEvaluator } from '../../../apps/worker/src/alerts/evaluator.js';
import type { AlertEvent } from '../../../shared/alerts/alert-types.js';
import { ALERT_DELIVERY_QUEUE, type DeliveryJobData } from '../../../shared/alerts/delivery-queue.js';
import { alertKeys } from '../../../shared/keyspace.js';
import type { NewsItem } from '../../../shared/market-types.js';
import { stackEvaluator } from '../../support/alert-evaluator.js';
import { http } from '../../support/http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { solPost as post } from '../../support/news-item.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { seedUser, tokenFor } from '../../api/auth/helpers.js';

const snapshotOf = (posts: readonly NewsItem[], cachedAt: string) => JSON.stringify({ data: posts, cachedAt });

describe('alerts: every change fires exactly once (evaluated-through record, parts)', () => {
  let stack: Stack;
  let receiver: Receiver;
  let apiToken: string;
  let queue: Queue<DeliveryJobData>;
  let scheduled: AlertEvaluator;
  let forced: AlertEvaluator;
  // Later than any refresh the stack's worker makes itself: these are the newest refreshes.
  let clock = Date.parse('2030-01-01T00:00:00.000Z');
  const nextAt = () => new Date((clock += 1000)).toISOString();

  const createAnyPostRule = async () => {
    const answer = await http(`${stack.apiUrl}/api/alerts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'any post', condition: { type: 'post' }, channels: [{ type: 'webhook', url: receiver.url() }] }),
    });
    expect(answer.status, JSON.stringify(answer.json)).to.equal(201);
    const rule = answer.json as { id: string; secret: string };
    receiver.secrets.push(rule.secret);
    return rule;
  };
  /** The post ids the rule's receiver got, one per delivered event (an event's retries counted once). */
  const postIdsOf = (ruleId: string) => {
    const byEvent = new Map<string, AlertEvent>();
    for (const got of receiver.received) {
      const event = JSON.parse(got.body) as AlertEvent;
      if (event.data.ruleId === ruleId && got.verifiedBy >= 0) byEvent.set(got.id, event);
    }
    return [...byEvent.values()].flatMap((event) => event.data.matches.map((match) => String(match.postId)));
  };
  const expectEachOnce = async (ruleId: string, ids: readonly string[]) => {
    await eventually(() => (postIdsOf(ruleId).length >= ids.length ? true : undefined), 15_000, `${ids.length} posts delivered`);
    // Whatever is still on its way would arrive within this: nothing more may come.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([...postIdsOf(ruleId)].sort()).to.deep.equal([...ids].sort());
  };

  before(async () => {
    stack = await startStack({ env: { ALERTS_ALLOW_LOOPBACK: 'true', REFRESH_INTERVAL: '24h' } });
    receiver = await startReceiver();
    await seedUser(stack, 'olga@example.com', 'olga password 1');
    apiToken = await tokenFor(stack, 'olga@example.com', 'olga password 1');
    queue = stack.queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE);
    scheduled = stackEvaluator(stack, queue);
    forced = stackEvaluator(stack, queue);
  });
  after(async () => {
    await queue.close();
    await receiver.close();
    await stack.close();
  });

  it('when a forced and a scheduled refresh overlap on two workers, round after round, then every new post arrives exactly once', async () => {
    const rule = await createAnyPostRule();
    let posts = [post('seed-0')];
    const seededAt = nextAt();
    await scheduled.afterNews({ news: null, sentiment: null }, posts, {}, seededAt);
    let replaced = snapshotOf(posts, seededAt);
    const expected = ['seed-0'];
    for (let round = 1; round <= 10; round++) {
      // Both read the same replaced snapshot; the forced one, a moment later, saw one post more.
      const scheduledPosts = [...posts, post(`r${round}-a`), post(`r${round}-b`)];
      const forcedPosts = [...scheduledPosts, post(`r${round}-c`)];
      const [scheduledAt, forcedAt] = [nextAt(), nextAt()];
      await Promise.all([
        scheduled.afterNews({ news: replaced, sentiment: null }, scheduledPosts, {}, scheduledAt),
        forced.afterNews({ news: replaced, sentiment: null }, forcedPosts, {}, forcedAt),
      ]);
      expected.push(...forcedPosts.slice(posts.length).map((p) => p.id));
      posts = forcedPosts;
      replaced = snapshotOf(posts, forcedAt);
    }
    await expectEachOnce(rule.id, expected);
  });

  it('when an evaluation fails on a Redis error, then the next one fires what it missed, once', async () => {
    const rule = await createAnyPostRule();
    const first = [post('f-1')];
    const firstAt = nextAt();
    await scheduled.afterNews({ news: null, sentiment: null }, first, {}, firstAt);
    // The rules' version key of the wrong type: reading the rules fails (WRONGTYPE) in the next evaluation.
    const version = await stack.redis.get(alertKeys.version());
    await stack.redis.del(alertKeys.version());
    await stack.redis.hset(alertKeys.version(), 'broken', '1');
    const second = [...first, post('f-2')];
    const secondAt = nextAt();
    const failed = await scheduled.afterNews({ news: snapshotOf(first, firstAt), sentiment: null }, second, {}, secondAt).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failed?.message).to.match(/WRONGTYPE/);
    await stack.redis.del(alertKeys.version());
    await stack.redis.set(alertKeys.version(), String(Number(version ?? 0) + 1));
    // The next refresh replaced the failed one's snapshot (f-2 in it): f-2 must still come.
    const third = [...second, post('f-3')];
    await forced.afterNews({ news: snapshotOf(second, secondAt), sentiment: null }, third, {}, nextAt());
    await expectEachOnce(rule.id, ['f-1', 'f-2', 'f-3']);
  });

  it('when one refresh brings 28 new posts, then the receiver gets all 28 exactly once, in parts of one firing', async () => {
    const rule = await createAnyPostRule();
    const base = [post('m-0')];
    await scheduled.afterNews({ news: null, sentiment: null }, base, {}, nextAt());
    const many = [...base, ...Array.from({ length: 28 }, (_, i) => post(`m-${i + 1}`))];
    await scheduled.afterNews({ news: null, sentiment: null }, many, {}, nextAt());
    await expectEachOnce(
      rule.id,
      many.map((p) => p.id),
    );
    const events = receiver.received.map((got) => JSON.parse(got.body) as AlertEvent).filter((e) => e.data.ruleId === rule.id);
    const last = events.filter((e) => e.data.matches.some((m) => m.postId !== 'm-0'));
    expect(new Set(last.map((e) => e.data.firingId)).size, 'one firing').to.equal(1);
    expect(last.map((e) => `${e.data.part}/${e.data.parts}`).sort()).to.deep.equal(['1/2', '2/2']);
  });
});
