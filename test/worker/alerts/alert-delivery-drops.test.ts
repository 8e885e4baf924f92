/**
 * Queued deliveries follow the rule as it is now, not as it was when they were queued: a retry
 * to a URL the user has since removed is dropped, and the drop is in the rule's deliveries log.
 */
import { expect } from 'chai';
import type { DeliveryAttempt } from '../../../shared/alerts/alert-store.js';
import { http } from '../../support/http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { seedUser, tokenFor } from '../../api/auth/helpers.js';

const ENV = {
  ALERTS_ALLOW_LOOPBACK: 'true',
  ALERTS_RETRY_BASE_MS: '100',
  ALERTS_RETRY_MAX_DELAY_MS: '5000',
  ALERTS_DELIVERY_LOCK_MS: '30000',
  REFRESH_INTERVAL: '24h',
};

describe('alerts: a queued retry to a URL the rule no longer has', () => {
  let stack: Stack;
  let failing: Receiver;
  let kept: Receiver;
  let token: string;
  before(async () => {
    stack = await startStack({ workers: 1, env: ENV });
    failing = await startReceiver();
    kept = await startReceiver();
    await seedUser(stack, 'dora@example.com', 'dora password 1');
    token = await tokenFor(stack, 'dora@example.com', 'dora password 1');
  });
  after(async () => {
    await failing?.close();
    await kept?.close();
    await stack?.close();
  });
  const call = async (method: string, path: string, body?: unknown) =>
    http(`${stack.apiUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('when the user PATCHes the failing URL away while a retry is scheduled, then the retry never reaches it and the drop is logged', async () => {
    // 503 with Retry-After: 2 s, so the retry is parked while the user changes the rule.
    failing.answer = 503;
    failing.headers = { 'Retry-After': '2' };
    const created = await call('POST', '/api/alerts', {
      name: 'moving receiver',
      condition: { type: 'rank', top: 3 },
      channels: [{ type: 'webhook', url: failing.url() }],
    });
    expect(created.status).to.equal(201);
    const rule = created.json as { id: string };
    const sent = await call('POST', `/api/alerts/${rule.id}/test`);
    expect(sent.status).to.equal(202);
    const attempts = async () => ((await call('GET', `/api/alerts/${rule.id}/deliveries`)).json as { data: DeliveryAttempt[] }).data;
    await eventually(async () => ((await attempts()).some((a) => a.outcome === 'retrying') ? true : undefined), 10_000, 'a retry');

    const patched = await call('PATCH', `/api/alerts/${rule.id}`, { channels: [{ type: 'webhook', url: kept.url() }] });
    expect(patched.status).to.equal(200);
    const dropped = await eventually(async () => (await attempts()).find((a) => a.outcome === 'dropped'), 15_000, 'the retry, dropped');
    expect(dropped).to.include({ url: failing.url(), status: null, error: 'not sent: the rule no longer has this URL' });
    expect(failing.received, 'only the attempt made before the PATCH').to.have.length(1);
    expect(kept.received, 'a queued event is not redirected to the new URL').to.have.length(0);
  });
});
