/**
 * Issue 46, item 3: rule writes cannot race. PATCH racing DELETE (100 rounds, concurrently over
 * real HTTP) never brings a deleted rule back: nothing the owner cannot list is indexed or fires;
 * a PATCH with a stale If-Match is 412; and after `users remove` nothing is delivered and no Redis
 * key names the user.
 */
import { expect } from 'chai';
import type { Queue } from 'bullmq';
import type { AlertEvaluator } from '../../../apps/worker/src/alerts/evaluator.js';
import type { AlertEvent } from '../../../shared/alerts/alert-types.js';
import { ALERT_DELIVERY_QUEUE, type DeliveryJobData } from '../../../shared/alerts/delivery-queue.js';
import { alertKeys } from '../../../shared/keyspace.js';
import { stackEvaluator } from '../../support/alert-evaluator.js';
import { http } from '../../support/http.js';
import { ownKeys } from '../../support/redis-keys.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { solPost as post } from '../../support/news-item.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { runBuilt, seedUser, tokenFor } from '../auth/helpers.js';

describe('alerts: rule writes that cannot race', () => {
  let stack: Stack;
  let receiver: Receiver;
  let queue: Queue<DeliveryJobData>;
  let evaluator: AlertEvaluator;
  let clock = Date.parse('2030-06-01T00:00:00.000Z');
  let posts = [post('p-0')];

  before(async () => {
    stack = await startStack({ env: { ALERTS_ALLOW_LOOPBACK: 'true', REFRESH_INTERVAL: '24h' } });
    receiver = await startReceiver();
    queue = stack.queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE);
    evaluator = stackEvaluator(stack, queue);
    await evaluator.afterNews({ news: null, sentiment: null }, posts, {}, new Date((clock += 1000)).toISOString());
  });
  after(async () => {
    await queue.close();
    await receiver.close();
    await stack.close();
  });

  const call = (token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    http(`${stack.apiUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const create = async (token: string) => {
    const answer = await call(token, 'POST', '/api/alerts', {
      name: 'any post',
      condition: { type: 'post' },
      channels: [{ type: 'webhook', url: receiver.url() }],
    });
    expect(answer.status, JSON.stringify(answer.json)).to.equal(201);
    return (answer.json as { id: string }).id;
  };
  /** A news refresh with one new post; the rule ids whose events arrived for it. */
  const refreshAndCollect = async (expectAny: boolean) => {
    const fresh = post(`p-${posts.length}`);
    posts = [...posts, fresh];
    const fired = await evaluator.afterNews({ news: null, sentiment: null }, posts, {}, new Date((clock += 1000)).toISOString());
    const forPost = () =>
      receiver.received.map((got) => JSON.parse(got.body) as AlertEvent).filter((e) => e.data.matches.some((m) => m.postId === fresh.id));
    if (expectAny) await eventually(() => (forPost().length >= fired ? true : undefined), 15_000, `${fired} deliveries`);
    else await new Promise((resolve) => setTimeout(resolve, 500));
    return { fired, ruleIds: forPost().map((e) => e.data.ruleId) };
  };

  it('when PATCH races DELETE 100 times, then no deleted rule comes back, is indexed or fires', async function () {
    this.timeout(120_000);
    const user = await seedUser(stack, 'rita@example.com', 'rita password 1');
    const token = await tokenFor(stack, 'rita@example.com', 'rita password 1');
    for (let round = 0; round < 100; round++) {
      const id = await create(token);
      const [patched, deleted] = await Promise.all([
        call(token, 'PATCH', `/api/alerts/${id}`, { name: `renamed ${round}`, enabled: true }),
        call(token, 'DELETE', `/api/alerts/${id}`),
      ]);
      expect(deleted.status).to.equal(204);
      expect([200, 404]).to.include(patched.status);
    }
    const listed = ((await call(token, 'GET', '/api/alerts')).json as { data: { id: string }[] }).data.map((r) => r.id);
    expect(listed).to.deep.equal([]);
    expect(await stack.redis.smembers(alertKeys.userRules(user.id))).to.deep.equal([]);
    expect(await ownKeys(stack.redis, '{alerts}:rule:*')).to.deep.equal([]);
    const { fired, ruleIds } = await refreshAndCollect(false);
    expect(fired, 'nothing fires').to.equal(0);
    expect(ruleIds).to.deep.equal([]);
  });

  it('when a PATCH carries an ETag that is no longer current, then it is 412 and changes nothing', async () => {
    await seedUser(stack, 'sven@example.com', 'sven password 1');
    const token = await tokenFor(stack, 'sven@example.com', 'sven password 1');
    const id = await create(token);
    const read = await call(token, 'GET', `/api/alerts/${id}`);
    const etag = read.headers.get('etag') ?? '';
    expect(etag).to.match(/^"r\d+"$/);
    const first = await call(token, 'PATCH', `/api/alerts/${id}`, { name: 'first' }, { 'If-Match': etag });
    expect(first.status).to.equal(200);
    expect(first.headers.get('etag')).to.not.equal(etag);
    const stale = await call(token, 'PATCH', `/api/alerts/${id}`, { name: 'second' }, { 'If-Match': etag });
    expect(stale.status).to.equal(412);
    expect(stale.json).to.have.property('error');
    expect(((await call(token, 'GET', `/api/alerts/${id}`)).json as { name: string }).name).to.equal('first');
  });

  it('when a user is removed, then nothing of its alerts fires and no Redis key names it', async () => {
    const user = await seedUser(stack, 'tara@example.com', 'tara password 1');
    const token = await tokenFor(stack, 'tara@example.com', 'tara password 1');
    const ids = await Promise.all(Array.from({ length: 5 }, () => create(token)));
    const before = await refreshAndCollect(true);
    expect(before.ruleIds.filter((id) => ids.includes(id))).to.have.length(5);
    expect(await stack.redis.exists(alertKeys.firings(user.id))).to.equal(1);
    const removed = await runBuilt('scripts/users.ts', ['remove', 'tara@example.com'], {
      env: { ...process.env, NODE_ENV: 'test', ...stack.redisEnv },
    });
    expect(removed.code, removed.stderr).to.equal(0);
    const after = await refreshAndCollect(false);
    expect(after.ruleIds.filter((id) => ids.includes(id))).to.deep.equal([]);
    expect(await ownKeys(stack.redis, `*${user.id}*`)).to.deep.equal([]);
  });
});
