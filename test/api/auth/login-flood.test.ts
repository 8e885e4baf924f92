/**
 * Issue 38 item 5: with TRUST_PROXY off, a flood of logins (random plausible emails) from one
 * client address cannot fill the argon2 queue: each address has at most
 * LOGIN_MAX_IN_FLIGHT_PER_ADDRESS logins being checked, beyond that 429 at once. Through real
 * HTTP: the flood from 127.0.0.2 (its sockets bound there, on loopback), the real user from 127.0.0.1.
 */
import { expect } from 'chai';
import { Agent, request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '../../support/stack.js';
import { postLogin, seedUser } from './helpers.js';

const FLOOD_CLIENTS = 48;
const REAL_LOGINS = 10;

/** One login from `localAddress` on a keep-alive agent: its status and Retry-After. */
function loginFrom(url: string, agent: Agent, email: string): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/auth/login`, { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ email, password: 'not-the-password-1' }));
  });
}

describe('POST /api/auth/login under a flood from one address (TRUST_PROXY off)', function () {
  this.timeout(120_000);
  let stack: Stack;

  before(async () => {
    stack = await startStack({ workers: 0 });
    await seedUser(stack, 'real@example.com', 'the-real-password-1');
  });
  after(async () => {
    await stack?.close();
  });

  it('when 48 clients flood logins from one address, then the flood is held to LOGIN_MAX_IN_FLIGHT_PER_ADDRESS and a real user from another address logs in (< 5 % fail)', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: FLOOD_CLIENTS, localAddress: '127.0.0.2' });
    const flood: Record<number, number> = {};
    let refusedWithoutRetryAfter = 0;
    let flooding = true;
    const floodDone = Promise.all(
      Array.from({ length: FLOOD_CLIENTS }, async () => {
        while (flooding) {
          const answer = await loginFrom(stack.apiUrl, agent, `${randomUUID().slice(0, 12)}@example.com`);
          flood[answer.status] = (flood[answer.status] ?? 0) + 1;
          if (answer.status === 429 && !/^\d+$/.test(answer.retryAfter ?? '')) refusedWithoutRetryAfter += 1;
          // Refused, a client of the flood tries again after 200 ms rather than the Retry-After (the
          // tight loop, which also costs the API's CPU, is measured by dev/login-flood.ts).
          if (answer.status !== 401) await new Promise((r) => setTimeout(r, 200));
        }
      }),
    );
    const real: number[] = [];
    try {
      // The flood is under way (answers are coming back) before the real user starts.
      while ((flood[401] ?? 0) + (flood[429] ?? 0) + (flood[503] ?? 0) < FLOOD_CLIENTS) await new Promise((r) => setTimeout(r, 20));
      for (let i = 0; i < REAL_LOGINS; i += 1)
        real.push((await postLogin(stack, { email: 'real@example.com', password: 'the-real-password-1' })).status);
    } finally {
      flooding = false;
      await floodDone;
      agent.destroy();
    }
    const failed = real.filter((status) => status !== 200).length;
    expect(failed / REAL_LOGINS, `real user's answers: ${real.join(',')}; flood: ${JSON.stringify(flood)}`).to.be.lessThan(0.05);
    // The flood was served up to its cap (401 after the argon2 work) and refused beyond it, at once.
    expect(flood[401] ?? 0).to.be.greaterThan(0);
    expect(flood[429] ?? 0).to.be.greaterThan(flood[401] ?? 0);
    expect(refusedWithoutRetryAfter).to.equal(0);
  });
});
