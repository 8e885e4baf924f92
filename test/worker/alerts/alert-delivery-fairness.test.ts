/**
 * One user's slow receivers do not hold back another user's delivery (issue 46, item 4): a user's
 * deliveries in flight per worker are capped (ALERTS_USER_IN_FLIGHT, 5), the rest wait their turn,
 * so the other user's event takes a free slot at once. One refresh fires 60 rules of one user with
 * 5 webhooks each (300 deliveries to receivers that hold every answer 5 s), then another user's rule
 * queued behind all of them. Without the cap, 300 deliveries of 5 s on the 50 slots put the other
 * user's event about 30 s behind.
 */
import { expect } from 'chai';
import type { Queue } from 'bullmq';
import { ALERT_DELIVERY_QUEUE, type DeliveryJobData } from '../../../shared/alerts/delivery-queue.js';
import type { NewsItem } from '../../../shared/market-types.js';
import { stackEvaluator } from '../../support/alert-evaluator.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { callAs, loggedInUsers } from '../../api/auth/helpers.js';

const SLOW_RULES = 60;
const CHANNELS = 5;
const post = (id: string, token: string): NewsItem => ({
  id,
  text: `${id} about ${token}`,
  author: 'someone',
  authorFollowers: 5000,
  publishedAt: '2026-12-01T00:00:00.000Z',
  tokens: [token],
  engagementScore: 50,
});

describe('alerts: one user’s slow receivers and another user’s delivery', () => {
  let stack: Stack;
  let slow: Receiver;
  let fast: Receiver;
  let queue: Queue<DeliveryJobData>;
  const tokens: Record<string, string> = {};
  before(async () => {
    // The defaults: 50 deliveries in flight per worker, 5 of them one user's.
    stack = await startStack({ workers: 1, env: { ALERTS_ALLOW_LOOPBACK: 'true', REFRESH_INTERVAL: '24h' } });
    [slow, fast] = [await startReceiver(), await startReceiver()];
    slow.delayMs = 5000;
    queue = stack.queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE);
    Object.assign(tokens, await loggedInUsers(stack, ['ivy', 'jon']));
  });
  after(async () => {
    await slow?.close();
    await fast?.close();
    await queue?.close();
    await stack?.close();
  });
  const createRule = async (user: string, token: string, urls: string[]) => {
    const answer = await callAs(stack, tokens[user], 'POST', '/api/alerts', {
      name: 'fairness',
      condition: { type: 'post', token },
      channels: urls.map((url) => ({ type: 'webhook', url })),
    });
    expect(answer.status, JSON.stringify(answer.json)).to.equal(201);
  };

  it('when one user’s refresh queues 300 deliveries to receivers that hold each answer 5 s, then another user’s delivery queued after them arrives within 5 s of the first slow one', async function () {
    this.timeout(60_000);
    const urls = Array.from({ length: CHANNELS }, (_, n) => slow.url(`/hook${n}`));
    for (let i = 0; i < SLOW_RULES; i++) await createRule('ivy', 'SOL', urls);
    await createRule('jon', 'ETH', [fast.url()]);
    const evaluator = stackEvaluator(stack, queue);
    const at = new Date().toISOString();
    // The slow user's 300 deliveries are queued first, the other user's behind them: the worst order.
    const fired = await evaluator.evaluate('fairness-sol', at, { news: { previousIds: new Set(), current: [post('p-sol', 'SOL')] } }, [
      ['post', 'SOL'],
    ]);
    expect(fired).to.equal(SLOW_RULES);
    expect(
      await evaluator.evaluate('fairness-eth', at, { news: { previousIds: new Set(), current: [post('p-eth', 'ETH')] } }, [
        ['post', 'ETH'],
      ]),
    ).to.equal(1);
    await eventually(() => (fast.received.length > 0 ? true : undefined), 40_000, 'the other user’s delivery');
    await eventually(() => (slow.received.length > 0 ? true : undefined), 10_000, 'the first slow delivery');
    const waited = fast.received[0]!.at - slow.received[0]!.at;
    expect(waited, 'ms between the first slow delivery and the other user’s').to.be.below(5000);
    expect(slow.received.length, 'the slow user is held to its 5 in flight').to.be.at.most(10);
  });
});
