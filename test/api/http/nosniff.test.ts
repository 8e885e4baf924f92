/** `X-Content-Type-Options: nosniff` on every answer, whichever path writes it (issue 38 item 9). */
import { expect } from 'chai';
import { http } from '../../support/http.js';
import { rawExchange } from '../../support/raw-http.js';
import { startStack, type Stack } from '../../support/stack.js';

describe('X-Content-Type-Options: nosniff on every answer', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  it('when reads, errors, docs, metrics, the login and the parser-refused requests are answered, then each says nosniff', async () => {
    const answers = await Promise.all([
      http(`${stack.apiUrl}/api/market/trending`),
      http(`${stack.apiUrl}/api/market/news?page=zero`),
      http(`${stack.apiUrl}/no/such/route`),
      http(`${stack.apiUrl}/api/market/trending`, { method: 'DELETE' }),
      http(`${stack.apiUrl}/api/auth/me`),
      http(`${stack.apiUrl}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{bad' }),
      http(`${stack.apiUrl}/openapi.json`),
      http(`${stack.apiUrl}/metrics`),
      http(`${stack.apiUrl}/healthz`),
    ]);
    for (const answer of answers) expect(answer.headers.get('x-content-type-options'), `${answer.status}`).to.equal('nosniff');
    expect(new Set(answers.map((answer) => answer.status))).to.include.members([200, 400, 401, 404, 405]);

    const refused = await rawExchange(stack.apiUrl, 'NOT A REQUEST\r\n\r\n');
    expect(refused.status).to.equal(400);
    expect(refused.headers['x-content-type-options']).to.equal('nosniff');
  });
});
