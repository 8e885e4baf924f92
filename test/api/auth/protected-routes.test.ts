import type { Queue } from 'bullmq';
import { expect } from 'chai';
import { SignJWT } from 'jose';
import jwt from 'jsonwebtoken';
import { UserStore, type UserRecord } from '../../../apps/api/src/auth/users.js';
import { keys, refreshSlotKeys } from '../../../shared/keyspace.js';
import { REFRESH_QUEUE } from '../../../shared/queues.js';
import { activeRefreshJobs } from '../../../shared/snapshot-kinds.js';

/** The jobs an admin refresh asks for without TRENDING_WINDOWS: every kind's but the windowed lists'. */
const REFRESH_JOBS = activeRefreshJobs(['24h']);
import { http, type HttpAnswer } from '../../support/http.js';
import { startStack, type Stack } from '../../support/stack.js';
import { clearThrottle, seedUser, tokenFor } from './helpers.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('bearer-protected routes: GET /api/auth/me and POST /api/admin/refresh', () => {
  let stack: Stack;
  let user: UserRecord;
  let userToken: string;
  let adminToken: string;
  const secret = () => new TextEncoder().encode(stack.config.jwtSecret);
  const me = (authorization?: string): Promise<HttpAnswer> =>
    http(`${stack.apiUrl}/api/auth/me`, { headers: authorization === undefined ? {} : { Authorization: authorization } });
  const refresh = (token?: string) =>
    http(`${stack.apiUrl}/api/admin/refresh`, { method: 'POST', headers: token ? { Authorization: `Bearer ${token}` } : {} });
  /** A token with the service's claims for `user`, signed as the test says. */
  const claimsOf = (u: UserRecord) => ({ email: u.email, role: u.role });
  const signed = (alg: string, key: Uint8Array, u: UserRecord = user) =>
    new SignJWT(claimsOf(u))
      .setProtectedHeader({ alg })
      .setSubject(u.id)
      .setIssuer(stack.config.jwtIssuer)
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);

  before(async () => {
    stack = await startStack({ workers: 0 });
    user = await seedUser(stack, 'user@example.com', 'user password 1', 'user');
    await seedUser(stack, 'admin@example.com', 'admin password 1', 'admin');
    userToken = await tokenFor(stack, 'user@example.com', 'user password 1');
    adminToken = await tokenFor(stack, 'admin@example.com', 'admin password 1');
  });
  after(() => stack.close());
  beforeEach(() => clearThrottle(stack));

  const expect401 = (res: HttpAnswer, error: string) => {
    expect(res.status).to.equal(401);
    expect(res.json).to.deep.equal({ error });
    expect(res.headers.get('www-authenticate')).to.equal('Bearer');
  };

  describe('GET /api/auth/me', () => {
    it('when the token is valid, then 200 { id, email, role, createdAt } from the store', async () => {
      const res = await me(`Bearer ${userToken}`);
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.equal({ id: user.id, email: 'user@example.com', role: 'user', createdAt: user.createdAt });
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect((await me(`bearer ${userToken}`)).status, 'the scheme is case-insensitive').to.equal(200);
    });

    for (const [what, header] of [
      ['no Authorization header', undefined],
      ['another scheme', 'Basic dXNlcjpwYXNz'],
      ['an empty Bearer', 'Bearer '],
    ] as const) {
      it(`when there is ${what}, then 401 Missing token`, async () => {
        expect401(await me(header), 'Missing token');
      });
    }

    it('when the signature is forged (payload changed), then 401 Invalid token', async () => {
      const [header, , signature] = userToken.split('.');
      const payload = { ...(jwt.decode(userToken) as Record<string, unknown>), role: 'admin' };
      expect401(await me(`Bearer ${header}.${b64(payload)}.${signature}`), 'Invalid token');
    });

    it('when the token is signed with another key, then 401 Invalid token', async () => {
      const token = await signed('HS256', new TextEncoder().encode('another secret of at least thirty-two bytes'));
      expect401(await me(`Bearer ${token}`), 'Invalid token');
    });

    it('when the token says alg none, then 401 Invalid token', async () => {
      const payload = jwt.decode(userToken) as Record<string, unknown>;
      expect401(await me(`Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`), 'Invalid token');
    });

    it('when the token is HS512 with the right secret, then 401 Invalid token (HS256 is pinned)', async () => {
      expect401(await me(`Bearer ${await signed('HS512', secret())}`), 'Invalid token');
    });

    it('when the token is right in every way but its issuer, then 401 Invalid token', async () => {
      const token = await new SignJWT(claimsOf(user))
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setIssuer('someone-else')
        .setJti('x')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(secret());
      expect401(await me(`Bearer ${token}`), 'Invalid token');
    });

    it('when the token has no exp, then 401 Invalid token (never a token that never expires)', async () => {
      const token = await new SignJWT(claimsOf(user))
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setIssuer(stack.config.jwtIssuer)
        .setJti('x')
        .setIssuedAt()
        .sign(secret());
      expect401(await me(`Bearer ${token}`), 'Invalid token');
    });

    for (const garbage of ['garbage', 'a.b.c', 'Bearer', 'x y']) {
      it(`when the token is ${JSON.stringify(garbage)}, then 401 Invalid token`, async () => {
        expect401(await me(`Bearer ${garbage}`), 'Invalid token');
      });
    }

    it('when the token has expired, then 401 Token expired', async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT(claimsOf(user))
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setIssuer(stack.config.jwtIssuer)
        .setJti(crypto.randomUUID())
        .setIssuedAt(now - 86_400 - 60)
        .setExpirationTime(now - 60)
        .sign(secret());
      expect401(await me(`Bearer ${token}`), 'Token expired');
    });

    it('when the user was removed (or removed and added again), then its old token is 401 Invalid token', async () => {
      const users = new UserStore(stack.redis);
      const gone = await seedUser(stack, 'gone@example.com', 'gone password 1');
      const token = await tokenFor(stack, 'gone@example.com', 'gone password 1');
      expect((await me(`Bearer ${token}`)).status).to.equal(200);
      await users.remove(gone.email);
      expect401(await me(`Bearer ${token}`), 'Invalid token');
      await seedUser(stack, 'gone@example.com', 'gone password 1');
      expect401(await me(`Bearer ${token}`), 'Invalid token');
    });
  });

  describe('POST /api/admin/refresh', () => {
    let queue: Queue;
    before(() => {
      queue = stack.queue(REFRESH_QUEUE);
    });
    after(() => queue.close());
    const pendingRefreshJobs = async () =>
      (await queue.getJobs(['waiting', 'prioritized', 'delayed', 'active'])).map((job) => job.name).sort();

    it('when an admin asks, then 202 and a refresh job for every shared snapshot is queued', async () => {
      expect(await pendingRefreshJobs()).to.deep.equal([]);
      const res = await refresh(adminToken);
      expect(res.status).to.equal(202);
      expect(res.json).to.deep.equal({ status: 'refresh requested', requested: [...REFRESH_JOBS], coalesced: [] });
      expect(await pendingRefreshJobs()).to.deep.equal([...REFRESH_JOBS].sort());
    });

    it('when an admin asks again within 10 s, however often, then 429 with Retry-After and no run is added: the asks join the first one', async () => {
      await queue.obliterate({ force: true });
      // One key a call: each job's key is in its own slot (a Redis Cluster refuses a DEL across slots).
      await Promise.all(REFRESH_JOBS.map((job) => stack.redis.del(refreshSlotKeys.forcedAsk(job))));
      expect((await refresh(adminToken)).status).to.equal(202);
      const first = await queue.getJobs(['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed']);
      expect(first).to.have.length(REFRESH_JOBS.length);
      // The first runs end (as a worker would end them): BullMQ's deduplication alone would then take a new run per ask.
      for (const job of first) await queue.remove(job.id!);
      const again = await Promise.all(Array.from({ length: 10 }, () => refresh(adminToken)));
      for (const res of again) {
        expect(res.status).to.equal(429);
        expect(res.json)
          .to.have.property('error')
          .that.matches(/less than 10 s ago/);
        expect(Number(res.headers.get('retry-after'))).to.be.within(1, 10);
      }
      expect(await queue.getJobs(['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed'])).to.have.length(0);
      // One job's window ends early (its key gone): the next ask starts that job alone, the others stay coalesced.
      await stack.redis.del(refreshSlotKeys.forcedAsk(REFRESH_JOBS[0]!));
      const partial = await refresh(adminToken);
      expect(partial.status).to.equal(202);
      expect(partial.json).to.deep.equal({ status: 'refresh requested', requested: [REFRESH_JOBS[0]], coalesced: REFRESH_JOBS.slice(1) });
      expect(await pendingRefreshJobs()).to.deep.equal([REFRESH_JOBS[0]]);
    });

    it('when a user asks, then 403 Forbidden (no WWW-Authenticate)', async () => {
      const res = await refresh(userToken);
      expect(res.status).to.equal(403);
      expect(res.json).to.deep.equal({ error: 'Forbidden' });
      expect(res.headers.get('www-authenticate')).to.equal(null);
    });

    it('when an admin was demoted since the token was issued, then 403: the stored role counts', async () => {
      await seedUser(stack, 'boss@example.com', 'boss password 1', 'admin');
      const token = await tokenFor(stack, 'boss@example.com', 'boss password 1');
      await stack.redis.hset(keys.user('boss@example.com'), 'role', 'user');
      expect((await refresh(token)).status).to.equal(403);
    });

    it('when no token or a bad one is sent, then 401', async () => {
      expect401(await refresh(), 'Missing token');
      expect401(await refresh('nonsense'), 'Invalid token');
    });
  });
});
