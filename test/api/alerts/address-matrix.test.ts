import { expect } from 'chai';
import { http } from '../../support/http.js';
import { startStack, type Stack } from '../../support/stack.js';
import { seedUser, tokenFor } from '../auth/helpers.js';

/** Every address a webhook may not reach, and the reason its owner is told. */
export const REFUSED_URLS: readonly [url: string, reason: RegExp][] = [
  ['http://127.0.0.1/hook', /127\.0\.0\.1 is a loopback address/],
  ['http://10.1.2.3/hook', /10\.1\.2\.3 is a private address/],
  ['http://172.16.0.1/hook', /172\.16\.0\.1 is a private address/],
  ['http://192.168.1.1/hook', /192\.168\.1\.1 is a private address/],
  ['http://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is a link-local address \(cloud metadata included\)/],
  ['http://100.64.0.1/hook', /100\.64\.0\.1 is a carrier-grade NAT address/],
  ['http://[::1]/hook', /::1 is a loopback address/],
  ['http://[fc00::1]/hook', /fc00::1 is a unique-local address/],
  ['http://[::ffff:127.0.0.1]/hook', /is an IPv4-mapped address \(of 127\.0\.0\.1\)/],
  ['http://0.0.0.0/hook', /0\.0\.0\.0 is the unspecified address/],
  ['http://224.0.0.1/hook', /224\.0\.0\.1 is a multicast address/],
  ['http://localhost/hook', /host localhost resolves to (127\.0\.0\.1|::1) is a loopback address/],
];

describe('alert webhooks: the address matrix at save time (loopback not allowed)', () => {
  let stack: Stack;
  let token: string;
  before(async () => {
    stack = await startStack({ workers: 0 });
    await seedUser(stack, 'carol@example.com', 'carol password 1');
    token = await tokenFor(stack, 'carol@example.com', 'carol password 1');
  });
  after(() => stack.close());

  for (const [url, reason] of REFUSED_URLS) {
    it(`when a rule's webhook is ${url}, then 400 naming the field and the reason`, async () => {
      const answer = await http(`${stack.apiUrl}/api/alerts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'x', condition: { type: 'rank', top: 3 }, channels: [{ type: 'webhook', url }] }),
      });
      expect(answer.status).to.equal(400);
      const { error } = answer.json as { error: string };
      expect(error).to.match(/^Invalid field: channels\.0\.url /);
      expect(error).to.match(reason);
    });
  }
});
