/**
 * Issue 28 item 1: failed logins must not fill Redis. An email that cannot be an address is
 * refused before argon2 and Redis; the counters of the others are named by a fixed-length
 * digest and deleted when given back to 0.
 */
import { expect } from 'chai';
import { addressFailuresKey, emailFailuresKey, LoginThrottle } from '../../../apps/api/src/auth/throttle.js';
import { ownKeys, ownMemory } from '../../support/redis-keys.js';
import { startStack, type Stack } from '../../support/stack.js';
import { clearThrottle, postLogin } from './helpers.js';

/** `count` tasks, `lanes` at a time. */
async function inLanes(count: number, lanes: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

describe('login failure counters stay bounded (issue 28)', function () {
  this.timeout(120_000);
  let stack: Stack;
  before(async () => {
    stack = await startStack({ workers: 0, env: { TRUST_PROXY: 'true' } });
  });
  after(() => stack.close());
  beforeEach(() => clearThrottle(stack));

  it('when 1,000 logins fail with distinct 15 KB emails, then Redis grows by under 2 MB, keeps no counter, and each answer is the usual 401', async () => {
    const before = await ownMemory(stack.redis);
    const answers = new Map<string, number>();
    await inLanes(1000, 10, async (i) => {
      const email = `${String(i).padStart(4, '0')}${'x'.repeat(15_000)}@example.com`;
      // From as many addresses, as a botnet would send them: no address reaches its own limit.
      const address = `10.${i >> 8}.${i & 255}.1`;
      const res = await postLogin(stack, { email, password: 'wrong' }, { headers: { 'X-Forwarded-For': address } });
      const key = `${res.status} ${JSON.stringify(res.json)} ${res.headers.get('www-authenticate')}`;
      answers.set(key, (answers.get(key) ?? 0) + 1);
    });
    const grown = (await ownMemory(stack.redis)) - before;
    console.log(`      1,000 failed logins with 15 KB emails: Redis grew by ${(grown / 1024).toFixed(0)} KiB`);
    expect([...answers]).to.deep.equal([['401 {"error":"Invalid credentials"} Bearer', 1000]]);
    expect(grown).to.be.below(2 * 1024 * 1024);
    expect(await ownKeys(stack.redis, '{login}:*')).to.deep.equal([]);
  });

  it('when an email has no @, then it is the same 401 as an unknown address', async () => {
    const unknown = await postLogin(stack, { email: 'nobody@example.com', password: 'wrong' });
    const noAt = await postLogin(stack, { email: 'nobody.example.com', password: 'wrong' });
    expect(noAt.status).to.equal(401);
    expect(noAt.body.equals(unknown.body)).to.equal(true);
  });

  it('when logins fail with long plausible emails, then each counter name has the same short length', async () => {
    for (let i = 0; i < 3; i += 1) {
      const email = `${String(i)}${'y'.repeat(230)}@example.com`;
      expect((await postLogin(stack, { email, password: 'wrong' }, { headers: { 'X-Forwarded-For': '203.0.113.9' } })).status).to.equal(
        401,
      );
    }
    const names = await ownKeys(stack.redis, '{login}:fail:email:*');
    expect(names).to.have.length(3);
    expect(new Set(names.map((name) => name.length))).to.deep.equal(new Set([emailFailuresKey('a@b.c').length]));
  });

  it('when an attempt is given back (a 503 of ours) or succeeds, then its counters are deleted, not left at 0', async () => {
    const throttle = new LoginThrottle(stack.redis);
    const email = 'given-back@example.com';
    await throttle.cancel(await throttle.reserve(email, '198.51.100.77'));
    expect(await stack.redis.exists(emailFailuresKey(email), addressFailuresKey('198.51.100.77'))).to.equal(0);

    await throttle.reserve(email, '198.51.100.77'); // one real failure stays counted
    await throttle.cancel(await throttle.reserve(email, '198.51.100.77'));
    expect(await stack.redis.get(emailFailuresKey(email))).to.equal('1');
    await throttle.succeeded(await throttle.reserve(email, '198.51.100.78'));
    expect(await stack.redis.exists(emailFailuresKey(email), addressFailuresKey('198.51.100.78'))).to.equal(0);
  });
});
