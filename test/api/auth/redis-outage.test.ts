import { expect } from 'chai';
import { http, type HttpAnswer } from '../../support/http.js';
import { startTestRedis, type TestRedis } from '../../support/redis-server.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { seedUser, tokenFor } from './helpers.js';

describe('auth routes while Redis is down (docs/decisions.md#d8)', () => {
  let redis: TestRedis;
  let stack: Stack;

  before(async () => {
    redis = await startTestRedis();
    stack = await startStack({ workers: 0, redisUrl: redis.url });
  });
  after(async () => {
    // The stack closes cleanly only once its clients have reconnected (closing while they
    // are still reconnecting hangs).
    await redis.start();
    await eventually(async () => ((await stack.deps.redis.ping()) === 'PONG' ? true : undefined), 10_000, 'reconnection');
    await stack.close();
    await redis.stop();
  });

  it('then login, /me and the admin refresh answer 503 Service unavailable within 1 s', async () => {
    await seedUser(stack, 'ops@example.com', 'ops password 123', 'admin');
    const token = await tokenFor(stack, 'ops@example.com', 'ops password 123');
    await redis.stop();
    // Once the API's connection has seen the server go (a request sent before that would wait for its timeout, not fail fast).
    await eventually(() => (stack.deps.redis.status === 'ready' ? undefined : true), 5_000, 'the API to see Redis gone');

    const timed = async (request: Promise<HttpAnswer>) => {
      const started = Date.now();
      const res = await request;
      expect(Date.now() - started).to.be.below(1000);
      expect(res.status).to.equal(503);
      expect(res.json).to.deep.equal({ error: 'Service unavailable' });
    };
    await timed(
      http(`${stack.apiUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'ops@example.com', password: 'ops password 123' }),
      }),
    );
    const auth = { Authorization: `Bearer ${token}` };
    await timed(http(`${stack.apiUrl}/api/auth/me`, { headers: auth }));
    await timed(http(`${stack.apiUrl}/api/admin/refresh`, { method: 'POST', headers: auth }));
  });
});
