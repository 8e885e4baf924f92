/**
 * The auth holes closed by docs/decisions.md#d12: the per-address login limit as a global lockout behind a proxy,
 * the check-then-record race in the throttle, tokens surviving a password change, and tokens
 * signed with the real key but claiming a life of centuries.
 */
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import type { UserRecord } from '../../../apps/api/src/auth/users.js';
import { addressFailuresKey, emailFailuresKey } from '../../../apps/api/src/auth/throttle.js';
import { keys } from '../../../shared/keyspace.js';
import { http, type HttpAnswer } from '../../support/http.js';
import { startStack, type Stack } from '../../support/stack.js';
import { clearThrottle, postLogin, runBuilt, seedUser, tokenFor } from './helpers.js';

const password = 'the right password';

/** `count` wrong passwords from one client, spread over emails so no email reaches its own limit. */
async function failFrom(stack: Stack, count: number, headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const res = await postLogin(stack, { email: `guess-${i % 7}@example.com`, password: 'wrong' }, { headers });
    expect(res.status, `failure ${i}`).to.equal(401);
  }
}

describe('login throttle behind a proxy', function () {
  this.timeout(60_000);

  describe('with TRUST_PROXY=false (the default): every client may share the address', () => {
    let stack: Stack;
    before(async () => {
      // Logins at once from one address (the 12 below) are what this suite races: no cap on them here.
      stack = await startStack({ workers: 0, env: { TRUST_PROXY: 'false', LOGIN_MAX_IN_FLIGHT_PER_ADDRESS: '100' } });
      await seedUser(stack, 'ada@example.com', password);
    });
    after(() => stack.close());
    beforeEach(() => clearThrottle(stack));

    it('when 60 logins from the one address have failed, then the right password still logs in (no global lockout)', async () => {
      await failFrom(stack, 60, { 'X-Forwarded-For': '203.0.113.7' });
      expect((await postLogin(stack, { email: 'ada@example.com', password })).status).to.equal(200);
      expect(await stack.redis.keys(keys.loginFailuresByAddress('*'))).to.deep.equal([]);
    });

    it('when one email has failed 10 times, then it is still throttled (429)', async () => {
      for (let i = 0; i < 10; i += 1)
        expect((await postLogin(stack, { email: 'ada@example.com', password: 'wrong' })).status).to.equal(401);
      expect((await postLogin(stack, { email: 'ada@example.com', password })).status).to.equal(429);
    });

    it('when 12 wrong passwords for one email arrive at once, then 10 are 401 and 2 are 429 (the limit cannot be raced)', async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => postLogin(stack, { email: 'ada@example.com', password: 'wrong at once' })),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).to.deep.equal([...Array<number>(10).fill(401), 429, 429]);
      expect(await stack.redis.get(emailFailuresKey('ada@example.com'))).to.equal('10');
    });
  });

  describe('with TRUST_PROXY=true: the address comes from X-Forwarded-For', () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack({ workers: 0, env: { TRUST_PROXY: 'true' } });
      await seedUser(stack, 'ada@example.com', password);
    });
    after(() => stack.close());
    beforeEach(() => clearThrottle(stack));

    it('when one client address has failed 50 times over many emails, then it gets 429 for any email, other addresses do not', async () => {
      await failFrom(stack, 50, { 'X-Forwarded-For': '203.0.113.7' });
      const refused = await postLogin(stack, { email: 'ada@example.com', password }, { headers: { 'X-Forwarded-For': '203.0.113.7' } });
      expect(refused.status).to.equal(429);
      expect(refused.json).to.deep.equal({ error: 'Too many login attempts' });
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 900);
      expect(await stack.redis.get(addressFailuresKey('203.0.113.7'))).to.equal('50');
      const other = await postLogin(stack, { email: 'ada@example.com', password }, { headers: { 'X-Forwarded-For': '198.51.100.1' } });
      expect(other.status).to.equal(200);
    });

    it('when a login succeeds, then it does not count against its address', async () => {
      await postLogin(stack, { email: 'ada@example.com', password }, { headers: { 'X-Forwarded-For': '198.51.100.2' } });
      expect(Number(await stack.redis.get(addressFailuresKey('198.51.100.2')))).to.equal(0);
    });
  });
});

describe('token revocation and lifetime bounds', function () {
  this.timeout(60_000);
  let stack: Stack;
  let user: UserRecord;
  const me = (token: string): Promise<HttpAnswer> => http(`${stack.apiUrl}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } });

  before(async () => {
    stack = await startStack({ workers: 0 });
    user = await seedUser(stack, 'grace@example.com', password);
  });
  after(() => stack.close());
  beforeEach(() => clearThrottle(stack));

  const forge = (claims: Record<string, unknown>) =>
    jwt.sign(
      { email: user.email, role: user.role, sub: user.id, jti: randomUUID(), iss: stack.config.jwtIssuer, ...claims },
      stack.config.jwtSecret,
      {
        algorithm: 'HS256',
      },
    );

  it('when a token signed with the real key claims an exp in 2999, then 401 Invalid token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const res = await me(forge({ iat: now, exp: Math.floor(Date.UTC(2999, 0, 1) / 1000) }));
    expect(res.status).to.equal(401);
    expect(res.json).to.deep.equal({ error: 'Invalid token' });
  });

  it('when a token signed with the real key is issued in the future, then 401 Invalid token', async () => {
    const iat = Math.floor(Date.UTC(2999, 0, 1) / 1000);
    expect((await me(forge({ iat, exp: iat + 86_400 }))).status).to.equal(401);
  });

  it('when a token signed with the real key has the service’s own 24 h span, then it is accepted', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await me(forge({ iat: now, exp: now + 86_400 }))).status).to.equal(200);
  });

  it('when the password is changed with `users passwd`, then tokens issued before are refused and a new login works', async () => {
    const old = await tokenFor(stack, 'grace@example.com', password);
    expect((await me(old)).status).to.equal(200);
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', ...stack.redisEnv };
    delete env.JWT_SECRET;
    const changed = await runBuilt('scripts/users.ts', ['passwd', 'grace@example.com'], { env, input: 'a completely new password\n' });
    expect(changed.code, changed.stderr).to.equal(0);

    const refused = await me(old);
    expect(refused.status).to.equal(401);
    expect(refused.json).to.deep.equal({ error: 'Invalid token' });
    const fresh = await tokenFor(stack, 'grace@example.com', 'a completely new password');
    expect((await me(fresh)).status, 'a token issued right after the change').to.equal(200);
  });
});
