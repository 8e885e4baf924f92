import { expect } from 'chai';
import { http } from '../../support/http.js';
import { startStack, type Stack } from '../../support/stack.js';
import { seedUser, tokenFor } from '../auth/helpers.js';
import { ADDRESS_IN_TEXT, REFUSED_URLS } from '../../support/address-matrix.js';

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
      expect(error, 'never the address').to.not.match(ADDRESS_IN_TEXT);
    });
  }
});
