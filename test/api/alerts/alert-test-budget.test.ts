/**
 * POST /api/alerts/{id}/test cannot flood a receiver or Redis: a budget per rule and per user
 * (429 with Retry-After beyond it), none at all for a disabled rule (409), and a cap on the whole
 * delivery queue (503). The stack starts with no delivery worker, so what was accepted waits in
 * the queue; a worker started at the end delivers exactly that.
 */
import { expect } from 'chai';
import { ALERT_DELIVERY_QUEUE } from '../../../shared/alerts/delivery-queue.js';
import { http, type HttpAnswer } from '../../support/http.js';
import { ownMemory } from '../../support/redis-keys.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { callAs, loggedInUsers } from '../auth/helpers.js';

const ENV = { ALERTS_ALLOW_LOOPBACK: 'true', ALERTS_QUEUE_MAX: '30', REFRESH_INTERVAL: '24h' };

describe('alerts: the test budget', () => {
  let stack: Stack;
  let receiver: Receiver;
  const tokens: Record<string, string> = {};
  before(async () => {
    stack = await startStack({ workers: 0, env: ENV });
    receiver = await startReceiver();
    Object.assign(tokens, await loggedInUsers(stack, ['fay', 'gil']));
  });
  after(async () => {
    await receiver?.close();
    await stack?.close();
  });
  const call = (user: string, method: string, path: string, body?: unknown) => callAs(stack, tokens[user], method, path, body);
  const createRule = async (user: string) => {
    const answer = await call(user, 'POST', '/api/alerts', {
      name: 'tested',
      condition: { type: 'rank', top: 3 },
      channels: [{ type: 'webhook', url: receiver.url() }],
    });
    expect(answer.status).to.equal(201);
    return (answer.json as { id: string }).id;
  };
  /** `count` POST …/test, `parallel` at a time, over the rules in turn. */
  const flood = async (user: string, rules: string[], count: number, parallel: number) => {
    const answers: HttpAnswer[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < count) {
          const rule = rules[next++ % rules.length]!;
          answers.push(await call(user, 'POST', `/api/alerts/${rule}/test`));
        }
      }),
    );
    return answers;
  };

  it('when a user sends 1,000 tests 4 at a time over 5 rules, then 20 are accepted (5 per rule), the rest 429 with Retry-After, and Redis grows < 2 MB', async function () {
    this.timeout(120_000);
    const rules = await Promise.all(Array.from({ length: 5 }, () => createRule('fay')));
    // This run's keys only (BullMQ's included): on the Cluster leg other files share the Redis.
    const before = await ownMemory(stack.redis);
    const answers = await flood('fay', rules, 1000, 4);
    const accepted = answers.filter((a) => a.status === 202);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted, 'the user budget: 20 per hour').to.have.length(20);
    expect(refused).to.have.length(980);
    for (const answer of refused) {
      expect((answer.json as { error: string }).error).to.equal('Test budget spent: 5 per rule per minute, 20 per user per hour');
      const wait = Number(answer.headers.get('retry-after'));
      expect(wait).to.be.within(1, 3600);
    }
    // The user's hour is spent: even a new rule's first test waits for it.
    const fresh = await call('fay', 'POST', `/api/alerts/${await createRule('fay')}/test`);
    expect(fresh.status).to.equal(429);
    expect(Number(fresh.headers.get('retry-after'))).to.be.within(3000, 3600);
    expect((await ownMemory(stack.redis)) - before, 'bytes Redis grew').to.be.below(2 * 1024 * 1024);
  });

  it('when a rule spent its 5 a minute, then its 6th is 429 with the minute’s rest, and another rule of the user is still accepted', async () => {
    const [one, two] = [await createRule('gil'), await createRule('gil')];
    for (let i = 0; i < 5; i++) expect((await call('gil', 'POST', `/api/alerts/${one}/test`)).status).to.equal(202);
    const sixth = await call('gil', 'POST', `/api/alerts/${one}/test`);
    expect(sixth.status).to.equal(429);
    expect(Number(sixth.headers.get('retry-after'))).to.be.within(1, 60);
    expect((await call('gil', 'POST', `/api/alerts/${two}/test`)).status).to.equal(202);
  });

  it('when the rule is disabled, then a test is 409', async () => {
    const rule = await createRule('gil');
    expect((await call('gil', 'PATCH', `/api/alerts/${rule}`, { enabled: false })).status).to.equal(200);
    const refused = await call('gil', 'POST', `/api/alerts/${rule}/test`);
    expect(refused.status).to.equal(409);
    expect(refused.json).to.deep.equal({ error: 'Alert rule is disabled: enable it to send a test' });
  });

  it('when the queue holds ALERTS_QUEUE_MAX deliveries, then a test is 503 with a clear message, /metrics shows the depth, and a worker delivers exactly what was accepted', async function () {
    this.timeout(60_000);
    // 20 (fay) + 6 (gil) waiting: 4 more fill the queue to 30.
    const rule = await createRule('gil');
    for (let i = 0; i < 4; i++) expect((await call('gil', 'POST', `/api/alerts/${rule}/test`)).status).to.equal(202);
    const full = await call('gil', 'POST', `/api/alerts/${rule}/test`);
    expect(full.status).to.equal(503);
    expect(full.json).to.deep.equal({ error: 'Alert delivery queue is full: try the test again later' });
    expect(full.headers.get('retry-after')).to.equal('60');

    const queue = stack.queue(ALERT_DELIVERY_QUEUE);
    try {
      expect(await queue.getWaitingCount()).to.equal(30);
    } finally {
      await queue.close();
    }
    const metrics = (await http(`${stack.apiUrl}/metrics`)).body.toString('utf8');
    expect(metrics).to.include('bullmq_queue_jobs{queue="alert-delivery",state="waiting"} 30');
    expect(metrics).to.include('bullmq_queue_jobs{queue="alert-delivery",state="delayed"} 0');
    await stack.startWorkers(1);
    await eventually(() => (receiver.received.length >= 30 ? true : undefined), 30_000, '30 deliveries');
    expect(new Set(receiver.received.map((r) => r.id)).size).to.equal(30);
  });
});
