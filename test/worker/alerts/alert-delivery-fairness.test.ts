/**
 * One user's slow receivers do not hold back another user's delivery: a user's deliveries in
 * flight per worker are capped (ALERTS_USER_IN_FLIGHT), the rest wait their turn, so the other
 * user's event takes a free slot at once. Without the cap, 30 deliveries that each take 2 s on
 * 10 slots put the other user's event about 6 s behind.
 */
import { expect } from 'chai';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { callAs, loggedInUsers } from '../../api/auth/helpers.js';

const ENV = {
  ALERTS_ALLOW_LOOPBACK: 'true',
  ALERTS_DELIVERY_CONCURRENCY: '10',
  ALERTS_USER_IN_FLIGHT: '3',
  // Each slow attempt takes the whole 2 s and fails for good (no retries to muddle the count).
  ALERTS_REQUEST_TIMEOUT_MS: '2000',
  ALERTS_CONNECT_TIMEOUT_MS: '2000',
  ALERTS_DELIVERY_ATTEMPTS: '1',
  ALERTS_DISABLE_AFTER_FAILED_EVENTS: '10000',
  ALERTS_TEST_PER_RULE_PER_MINUTE: '100',
  ALERTS_TEST_PER_USER_PER_HOUR: '1000',
  ALERTS_DELIVERY_LOCK_MS: '30000',
  REFRESH_INTERVAL: '24h',
};

describe('alerts: one user’s slow receivers and another user’s delivery', () => {
  let stack: Stack;
  let slow: Receiver;
  let fast: Receiver;
  const tokens: Record<string, string> = {};
  before(async () => {
    stack = await startStack({ workers: 1, env: ENV });
    [slow, fast] = [await startReceiver(), await startReceiver()];
    slow.answer = 'hold';
    Object.assign(tokens, await loggedInUsers(stack, ['ivy', 'jon']));
  });
  after(async () => {
    await slow?.close();
    await fast?.close();
    await stack?.close();
  });
  const call = (user: string, method: string, path: string, body?: unknown) => callAs(stack, tokens[user], method, path, body);
  const createRule = async (user: string, urls: string[]) => {
    const answer = await call(user, 'POST', '/api/alerts', {
      name: 'fairness',
      condition: { type: 'rank', top: 3 },
      channels: urls.map((url) => ({ type: 'webhook', url })),
    });
    expect(answer.status).to.equal(201);
    return (answer.json as { id: string }).id;
  };

  it('when one user has 30 deliveries to receivers that hold each answer 2 s, then another user’s delivery arrives within about 2 s', async function () {
    this.timeout(60_000);
    const slowRule = await createRule(
      'ivy',
      [1, 2, 3, 4, 5].map((n) => slow.url(`/hook${n}`)),
    );
    const fastRule = await createRule('jon', [fast.url()]);
    for (let i = 0; i < 6; i++) expect((await call('ivy', 'POST', `/api/alerts/${slowRule}/test`)).status).to.equal(202);
    await eventually(() => (slow.received.length >= 3 ? true : undefined), 10_000, 'the slow deliveries under way');
    const sentAt = Date.now();
    expect((await call('jon', 'POST', `/api/alerts/${fastRule}/test`)).status).to.equal(202);
    await eventually(() => (fast.received.length > 0 ? true : undefined), 15_000, 'the other user’s delivery');
    const waited = fast.received[0]!.at - sentAt;
    expect(waited, 'ms the other user’s event waited').to.be.below(2500);
    expect(slow.received.length, 'the slow user is held to its 3 in flight').to.be.at.most(6);
  });
});
