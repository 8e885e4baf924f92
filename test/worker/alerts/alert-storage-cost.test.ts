/**
 * What one rule costs in Redis (README, Alerts): a rule that fires on every refresh, 60 times,
 * delivered by the stack's worker to a loopback receiver, then MEMORY USAGE of each of its keys.
 * Claims live two refresh intervals (so about 3 exist at once at any interval); the user's
 * firings stream keeps 7 days, at most 1,000: that part depends on the interval. Prints the
 * figure at the default interval (30 min) and at 1 min:
 *   npx mocha test/worker/alerts/alert-storage-cost.test.ts
 */
import { expect } from 'chai';
import type { Queue } from 'bullmq';
import { createAlertEvaluator } from '../../../apps/worker/src/alerts/evaluator.js';
import { ALERT_DELIVERY_QUEUE, type DeliveryJobData } from '../../../shared/alerts/delivery-queue.js';
import { alertKeys } from '../../../shared/keyspace.js';
import { createLogger } from '../../../shared/logger.js';
import { http } from '../../support/http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { seedUser, tokenFor } from '../../api/auth/helpers.js';

const FIRINGS = 60;
const WEEK_MS = 7 * 86_400_000;

describe('alerts: what a rule costs in Redis', () => {
  let stack: Stack;
  let receiver: Receiver;
  let queue: Queue<DeliveryJobData>;
  before(async () => {
    stack = await startStack({ workers: 1, env: { ALERTS_ALLOW_LOOPBACK: 'true', REFRESH_INTERVAL: '24h' } });
    receiver = await startReceiver();
    queue = stack.queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE);
  });
  after(async () => {
    await queue?.close();
    await receiver?.close();
    await stack?.close();
  });

  it(`when a rule fired ${FIRINGS} times, then its keys cost a few KB, and with the user’s firings stream under 1 MB at 1 min`, async function () {
    this.timeout(60_000);
    await seedUser(stack, 'hal@example.com', 'hal password 1');
    const token = await tokenFor(stack, 'hal@example.com', 'hal password 1');
    const created = await http(`${stack.apiUrl}/api/alerts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'every post',
        condition: { type: 'post' },
        channels: [{ type: 'webhook', url: receiver.url() }],
      }),
    });
    expect(created.status).to.equal(201);
    const rule = created.json as { id: string };
    const userId = (JSON.parse((await stack.redis.get(alertKeys.rule(rule.id)))!) as { userId: string }).userId;
    const evaluator = createAlertEvaluator({
      redis: stack.redis,
      deliveries: queue,
      config: stack.config.alerts,
      logger: createLogger(stack.config, 'test'),
      refreshIntervalMs: 30 * 60_000,
    });
    const start = Date.now();
    const at = (n: number) => new Date(start + n * 60_000).toISOString();
    const post = (n: number) => ({
      id: `p${n}`,
      text: `SOL post ${n}`,
      author: 'cobie',
      authorFollowers: 50_000,
      publishedAt: at(n),
      tokens: ['SOL'],
      engagementScore: 50,
    });
    await evaluator.afterNews({ news: null, sentiment: null }, [post(0)], {}, at(0));
    let fired = 0;
    for (let n = 1; n <= FIRINGS; n++) fired += await evaluator.afterNews({ news: null, sentiment: null }, [post(n)], {}, at(n));
    expect(fired, 'firings').to.equal(FIRINGS);
    await eventually(() => (receiver.received.length >= FIRINGS ? true : undefined), 30_000, 'every firing delivered');

    const usage = async (key: string) => Number((await stack.redis.memory('USAGE', key, 'SAMPLES', '0')) ?? 0);
    const claims = await stack.redis.keys(alertKeys.claim(rule.id, '*'));
    expect(claims.length, 'one claim per refresh evaluated').to.be.at.least(FIRINGS);
    const claimBytes = (await Promise.all(claims.map(usage))).reduce((a, b) => a + b, 0) / claims.length;
    const fixed = (
      await Promise.all(
        [alertKeys.rule(rule.id), alertKeys.lastFired(rule.id), alertKeys.deliveries(rule.id), alertKeys.failedEvents(rule.id)].map(usage),
      )
    ).reduce((a, b) => a + b, 0);
    const firings = alertKeys.firings(userId);
    const perFiring = (await usage(firings)) / (await stack.redis.xlen(firings));
    // At an interval, about 3 claims are alive (two intervals' TTL) and the stream holds 7 days of firings, 1,000 at most.
    const costAt = (intervalMs: number) => fixed + 3 * claimBytes + Math.min(1000, Math.floor(WEEK_MS / intervalMs)) * perFiring;
    const [slow, fast] = [costAt(30 * 60_000), costAt(60_000)];
    console.log(
      `      rule keys (rule, cooldown, 50-attempt log): ${fixed} B; a claim: ${Math.round(claimBytes)} B; a firing in the stream: ${Math.round(perFiring)} B\n` +
        `      a rule firing on every refresh: ${(slow / 1024).toFixed(1)} KB at 30 min, ${(fast / 1024).toFixed(1)} KB at 1 min`,
    );
    expect(fixed + 3 * claimBytes, 'the rule’s own keys').to.be.below(32 * 1024);
    expect(fast, 'the 1,000-firing cap bounds the stream').to.be.below(1024 * 1024);
  });
});
