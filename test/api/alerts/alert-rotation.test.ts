/**
 * Issue 46, item 8: a second rotation within the grace period keeps the first old secret signing
 * until the expiry announced when it was rotated out: a receiver still holding the first secret
 * verifies every delivery until then.
 */
import { expect } from 'chai';
import { http } from '../../support/http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { seedUser, tokenFor } from '../auth/helpers.js';

describe('alerts: rotating twice within the grace period', () => {
  let stack: Stack;
  let receiver: Receiver;
  let token: string;
  before(async () => {
    stack = await startStack({ env: { ALERTS_ALLOW_LOOPBACK: 'true', REFRESH_INTERVAL: '24h' } });
    receiver = await startReceiver();
    await seedUser(stack, 'vera@example.com', 'vera password 12');
    token = await tokenFor(stack, 'vera@example.com', 'vera password 12');
  });
  after(async () => {
    await receiver.close();
    await stack.close();
  });
  const call = (method: string, path: string, body?: unknown) =>
    http(`${stack.apiUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('when a rule is rotated twice, then a receiver with the first secret still verifies its deliveries', async () => {
    const created = await call('POST', '/api/alerts', {
      name: 'rotated',
      condition: { type: 'rank', top: 3 },
      channels: [{ type: 'webhook', url: receiver.url() }],
    });
    const { id, secret: first } = created.json as { id: string; secret: string };
    for (let n = 0; n < 2; n++) expect((await call('POST', `/api/alerts/${id}/secret`)).status).to.equal(200);
    // The receiver knows only the first secret (it has not deployed either rotation yet).
    receiver.secrets.push(first);
    const tested = await call('POST', `/api/alerts/${id}/test`);
    expect(tested.status).to.equal(202);
    const { eventId } = tested.json as { eventId: string };
    const [got] = await eventually(() => {
      const found = receiver.received.filter((r) => r.id === eventId);
      return found.length > 0 ? found : undefined;
    }, 10_000);
    expect(got!.verifiedBy, 'the first secret still signs').to.equal(0);
    expect(got!.signature.split(' '), 'current, and both rotated ones').to.have.length(3);
  });
});
