import argon2 from 'argon2';
import { expect } from 'chai';
import { jwtVerify } from 'jose';
import { UserStore } from '../../../apps/api/src/auth/users.js';
import { emailFailuresKey } from '../../../apps/api/src/auth/throttle.js';
import { startStack, type Stack } from '../../support/stack.js';
import { clearThrottle, postLogin, seedUser } from './helpers.js';

describe('POST /api/auth/login, through HTTP against Redis', () => {
  let stack: Stack;
  const password = 'correct horse battery';

  before(async () => {
    stack = await startStack({ workers: 0 });
    await seedUser(stack, 'ada@example.com', password, 'admin');
  });
  after(() => stack.close());
  beforeEach(() => clearThrottle(stack));

  describe('success', () => {
    it('when the credentials are right, then 200 { token, expiresIn: 86400 }, not cached, and the token checks out with another library', async () => {
      const res = await postLogin(stack, { email: 'ada@example.com', password });
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const body = res.json as { token: string; expiresIn: number };
      expect(body).to.have.all.keys('token', 'expiresIn');
      expect(body.expiresIn).to.equal(86400);

      const key = new TextEncoder().encode(stack.config.jwtSecret);
      const { payload, protectedHeader } = await jwtVerify(body.token, key, { algorithms: ['HS256'], issuer: stack.config.jwtIssuer });
      const stored = await new UserStore(stack.redis).find('ada@example.com');
      expect(protectedHeader.alg).to.equal('HS256');
      expect(payload.sub).to.equal(stored?.id);
      expect(payload).to.include({ email: 'ada@example.com', role: 'admin', iss: 'market-signals' });
      expect(payload.jti).to.match(/^[0-9a-f-]{36}$/);
      expect(payload.exp! - payload.iat!).to.equal(86400);
      expect(Math.abs(payload.iat! - Date.now() / 1000)).to.be.below(5);
    });

    it('when logging in twice, then each token has its own jti', async () => {
      const one = (await postLogin(stack, { email: 'ada@example.com', password })).json as { token: string };
      const two = (await postLogin(stack, { email: 'ada@example.com', password })).json as { token: string };
      const key = new TextEncoder().encode(stack.config.jwtSecret);
      expect((await jwtVerify(one.token, key)).payload.jti).not.to.equal((await jwtVerify(two.token, key)).payload.jti);
    });

    it('when the email differs in case and surrounding spaces, then it is the same account', async () => {
      const res = await postLogin(stack, { email: '  ADA@Example.Com\t', password });
      expect(res.status).to.equal(200);
    });
  });

  describe('refusals', () => {
    const missing: [string, unknown][] = [
      ['no email', { password }],
      ['no password', { email: 'ada@example.com' }],
      ['an empty email', { email: '', password }],
      ['a blank email', { email: '   ', password }],
      ['an empty password', { email: 'ada@example.com', password: '' }],
      ['a non-string email', { email: 42, password }],
      ['a non-string password', { email: 'ada@example.com', password: ['x'] }],
      ['an empty object', {}],
      ['an array body', [{ email: 'ada@example.com', password }]],
      ['a null body', null],
      ['a string body', 'ada@example.com'],
    ];
    for (const [what, body] of missing) {
      it(`when the body has ${what}, then 400 Missing fields`, async () => {
        const res = await postLogin(stack, body);
        expect(res.status).to.equal(400);
        expect(res.json).to.deep.equal({ error: 'Missing fields' });
      });
    }

    it('when there is no body at all, then 400 Missing fields', async () => {
      for (const init of [{ raw: '' }, { raw: '', contentType: '' }]) {
        const res = await postLogin(stack, undefined, init);
        expect(res.status).to.equal(400);
        expect(res.json).to.deep.equal({ error: 'Missing fields' });
      }
    });

    for (const raw of ['{"email":', '{email: "a"}', "{'a':1}", '{"__proto__":{"x":1},"email":"a@b.c","password":"p"}']) {
      it(`when the body is ${raw}, then 400 Invalid JSON body`, async () => {
        const res = await postLogin(stack, undefined, { raw });
        expect(res.status).to.equal(400);
        expect(res.json).to.deep.equal({ error: 'Invalid JSON body' });
      });
    }

    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      it(`when the content type is ${contentType}, then 415 Unsupported media type`, async () => {
        const res = await postLogin(stack, undefined, { raw: JSON.stringify({ email: 'ada@example.com', password }), contentType });
        expect(res.status).to.equal(415);
        expect(res.json).to.deep.equal({ error: 'Unsupported media type' });
      });
    }

    it('when a JSON body comes without a content type, then 415', async () => {
      const res = await postLogin(stack, undefined, { raw: JSON.stringify({ email: 'ada@example.com', password }), contentType: '' });
      expect(res.status).to.equal(415);
    });

    it('when the content type is JSON with a charset, then it is accepted', async () => {
      const res = await postLogin(stack, { email: 'ada@example.com', password }, { contentType: 'application/json; charset=utf-8' });
      expect(res.status).to.equal(200);
    });

    it('when the body is over 16 KiB, then 413 Payload too large', async () => {
      const res = await postLogin(stack, { email: 'ada@example.com', password: 'x'.repeat(17 * 1024) });
      expect(res.status).to.equal(413);
      expect(res.json).to.deep.equal({ error: 'Payload too large' });
    });

    it('when the email is unknown or the password wrong, then the same 401 Invalid credentials', async () => {
      const unknown = await postLogin(stack, { email: 'nobody@example.com', password });
      const wrong = await postLogin(stack, { email: 'ada@example.com', password: 'not the password' });
      for (const res of [unknown, wrong]) {
        expect(res.status).to.equal(401);
        expect(res.json).to.deep.equal({ error: 'Invalid credentials' });
        expect(res.headers.get('www-authenticate')).to.equal('Bearer');
      }
      expect(unknown.body.equals(wrong.body)).to.equal(true);
    });

    it('when the login path is asked with GET, then 405 with Allow: POST', async () => {
      const res = await fetch(`${stack.apiUrl}/api/auth/login`);
      expect(res.status).to.equal(405);
      expect(res.headers.get('allow')).to.include('POST');
    });
  });

  describe('throttling (docs/decisions.md#d4)', () => {
    it('when one email has failed 10 times, then the next attempt is 429 with Retry-After, even with the right password', async () => {
      for (let i = 0; i < 10; i += 1) {
        expect((await postLogin(stack, { email: 'ada@example.com', password: `wrong-${i}` })).status).to.equal(401);
      }
      for (const attempt of [
        { email: 'ada@example.com', password: 'wrong again' },
        { email: ' ADA@example.com', password },
      ]) {
        const res = await postLogin(stack, attempt);
        expect(res.status).to.equal(429);
        expect(res.json).to.deep.equal({ error: 'Too many login attempts' });
        const retryAfter = Number(res.headers.get('retry-after'));
        const ttl = await stack.redis.ttl(emailFailuresKey('ada@example.com'));
        expect(retryAfter)
          .to.be.within(ttl, ttl + 1)
          .and.within(1, 900);
      }
      // Refused attempts are not counted: the window still ends on time.
      expect(await stack.redis.get(emailFailuresKey('ada@example.com'))).to.equal('10');
      // Another account from the same address is not affected.
      expect((await postLogin(stack, { email: 'someone@example.com', password })).status).to.equal(401);
    });

    it('when a login succeeds, then the email starts over', async () => {
      for (let i = 0; i < 9; i += 1) await postLogin(stack, { email: 'ada@example.com', password: `wrong-${i}` });
      expect((await postLogin(stack, { email: 'ada@example.com', password })).status).to.equal(200);
      expect(await stack.redis.exists(emailFailuresKey('ada@example.com'))).to.equal(0);
      for (let i = 0; i < 10; i += 1) {
        expect((await postLogin(stack, { email: 'ada@example.com', password: `wrong-${i}` })).status).to.equal(401);
      }
      expect((await postLogin(stack, { email: 'ada@example.com', password })).status).to.equal(429);
    });
    // Per-address counting (TRUST_PROXY only) and the concurrency race: hardening.test.ts.
  });

  describe('password digests', () => {
    it('stores argon2id at 19 MiB, t=2, p=1', async () => {
      const stored = await new UserStore(stack.redis).find('ada@example.com');
      expect(stored?.passwordHash).to.match(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    });

    it('when the stored digest used weaker parameters, then a successful login rehashes it', async () => {
      const weak = await argon2.hash('weakly stored pw', { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 });
      await seedUser(stack, 'old@example.com', '', 'user', weak);
      const older = await argon2.hash('argon2i stored pw', { type: argon2.argon2i, memoryCost: 19456, timeCost: 2, parallelism: 1 });
      await seedUser(stack, 'older@example.com', '', 'user', older);

      expect((await postLogin(stack, { email: 'old@example.com', password: 'weakly stored pw' })).status).to.equal(200);
      expect((await postLogin(stack, { email: 'older@example.com', password: 'argon2i stored pw' })).status).to.equal(200);
      const users = new UserStore(stack.redis);
      for (const [email, pw] of [
        ['old@example.com', 'weakly stored pw'],
        ['older@example.com', 'argon2i stored pw'],
      ] as const) {
        const digest = (await users.find(email))?.passwordHash ?? '';
        expect(digest).to.match(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
        expect(await stack.deps.auth.passwords.verify(digest, pw)).to.equal(true);
      }
    });

    it('when the password is wrong, then the weak digest is left alone', async () => {
      const weak = await argon2.hash('another weak pw', { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 });
      await seedUser(stack, 'weak2@example.com', '', 'user', weak);
      expect((await postLogin(stack, { email: 'weak2@example.com', password: 'nope' })).status).to.equal(401);
      expect((await new UserStore(stack.redis).find('weak2@example.com'))?.passwordHash).to.equal(weak);
    });
  });
});
