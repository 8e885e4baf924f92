/**
 * Delivery, at least once and never lost, against a real loopback receiver verifying every
 * signature with `standardwebhooks`. The retry schedule is the production one scaled down by
 * configuration (ALERTS_RETRY_BASE_MS, ALERTS_RETRY_MAX_DELAY_MS), so a receiver down then up is
 * seen through within seconds instead of hours.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'chai';
import type { Queue } from 'bullmq';
import type { AlertEvent } from '../../../shared/alerts/alert-types.js';
import type { DeliveryAttempt } from '../../../shared/alerts/alert-store.js';
import { ALERT_DELIVERY_QUEUE, type DeliveryJobData } from '../../../shared/alerts/delivery-queue.js';
import { http } from '../../support/http.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { ROOT, seedUser, tokenFor } from '../../api/auth/helpers.js';

const ENV = {
  ALERTS_ALLOW_LOOPBACK: 'true',
  ALERTS_RETRY_BASE_MS: '100',
  ALERTS_RETRY_MAX_DELAY_MS: '400',
  ALERTS_DISABLE_AFTER_FAILED_EVENTS: '2',
  ALERTS_DELIVERY_LOCK_MS: '2000',
  REFRESH_INTERVAL: '24h',
};

function suite(workers: number, env: Record<string, string> = ENV) {
  const ctx = {} as { stack: Stack; receiver: Receiver; token: string; queue: Queue<DeliveryJobData> };
  before(async () => {
    ctx.stack = await startStack({ workers, env });
    ctx.receiver = await startReceiver();
    await seedUser(ctx.stack, 'erin@example.com', 'erin password 1');
    ctx.token = await tokenFor(ctx.stack, 'erin@example.com', 'erin password 1');
    ctx.queue = ctx.stack.queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE);
  });
  // Whatever `before` got to start (it may fail part-way: a login answered 503 under load once):
  // a stack left open keeps mocha's process alive, and the run waited on it for good.
  after(async () => {
    await ctx.queue?.close();
    await ctx.receiver?.close();
    await ctx.stack?.close();
  });
  const call = async (method: string, path: string, body?: unknown) =>
    http(`${ctx.stack.apiUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${ctx.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const createRule = async () => {
    const answer = await call('POST', '/api/alerts', {
      name: 'delivery',
      condition: { type: 'rank', top: 3 },
      channels: [{ type: 'webhook', url: ctx.receiver.url() }],
    });
    expect(answer.status).to.equal(201);
    const rule = answer.json as { id: string; secret: string };
    ctx.receiver.secrets.push(rule.secret);
    return rule;
  };
  const sendTest = async (ruleId: string) => {
    const answer = await call('POST', `/api/alerts/${ruleId}/test`);
    expect(answer.status).to.equal(202);
    return (answer.json as { eventId: string }).eventId;
  };
  const attempts = async (ruleId: string) =>
    ((await call('GET', `/api/alerts/${ruleId}/deliveries`)).json as { data: DeliveryAttempt[] }).data;
  const receivedOf = (eventId: string) => ctx.receiver.received.filter((r) => r.id === eventId);
  return { ctx, call, createRule, sendTest, attempts, receivedOf };
}

describe('alerts: webhook delivery', () => {
  const { ctx, call, createRule, sendTest, attempts, receivedOf } = suite(1);
  beforeEach(() => {
    ctx.receiver.answer = 200;
    ctx.receiver.headers = {};
  });

  it('when the receiver is down, then the event is retried with backoff and delivered once it is up, with the same webhook-id', async () => {
    const rule = await createRule();
    await ctx.receiver.stop();
    const eventId = await sendTest(rule.id);
    await eventually(
      async () => ((await attempts(rule.id)).filter((a) => a.outcome === 'retrying').length >= 3 ? true : undefined),
      15_000,
    );
    await ctx.receiver.start();
    const [delivered] = await eventually(() => (receivedOf(eventId).length > 0 ? receivedOf(eventId) : undefined), 15_000, 'the delivery');
    expect(delivered!.verifiedBy).to.be.at.least(0);
    expect((JSON.parse(delivered!.body) as AlertEvent).type).to.equal('alert.test');
    const log = await eventually(async () => {
      const all = await attempts(rule.id);
      return all.some((a) => a.outcome === 'delivered') ? all : undefined;
    });
    expect(new Set(log.map((a) => a.eventId))).to.deep.equal(new Set([eventId]));
    const failed = log.filter((a) => a.outcome === 'retrying');
    expect(failed.every((a) => a.status === null && /ECONNREFUSED/.test(a.error ?? ''))).to.equal(true);
    expect(log.map((a) => a.attempt).sort((a, b) => a - b)).to.deep.equal(log.map((_, i) => i + 1));
  });

  for (const status of [410, 400]) {
    it(`when the receiver answers ${status}, then the event is not retried, and the rule is disabled after 2 such events with the reason`, async () => {
      const rule = await createRule();
      ctx.receiver.answer = status;
      const first = await sendTest(rule.id);
      const job = await eventually(async () => {
        const found = await ctx.queue.getJob(`${first}-0`);
        return found && (await found.getState()) === 'completed' ? found : undefined;
      });
      expect(job.attemptsMade, 'one attempt, then the job is finished').to.be.at.most(1);
      expect(receivedOf(first)).to.have.length(1);
      const log = await attempts(rule.id);
      expect(log).to.have.length(1);
      expect(log[0]).to.include({ outcome: 'failed', status, error: `receiver answered ${status}` });

      await sendTest(rule.id);
      const disabled = await eventually(async () => {
        const read = (await call('GET', `/api/alerts/${rule.id}`)).json as { enabled: boolean; disabledReason: string | null };
        return read.enabled ? undefined : read;
      });
      expect(disabled.disabledReason).to.equal(`2 events in a row could not be delivered; the last: receiver answered ${status}`);
      const enabled = (await call('PATCH', `/api/alerts/${rule.id}`, { enabled: true })).json as { enabled: boolean; disabledReason: null };
      expect(enabled).to.include({ enabled: true, disabledReason: null });
    });
  }

  it('when the receiver answers 429 with Retry-After: 3600, then the next attempt waits ALERTS_RETRY_MAX_DELAY_MS (400 ms here), not an hour', async () => {
    const rule = await createRule();
    ctx.receiver.headers = { 'Retry-After': '3600' };
    ctx.receiver.answer = (request) => (receivedOf(request.id).length === 1 ? 429 : 200);
    const eventId = await sendTest(rule.id);
    const [first, second] = await eventually(() => (receivedOf(eventId).length === 2 ? receivedOf(eventId) : undefined), 10_000);
    // A receiver's Retry-After parks an event no longer than the schedule's longest wait.
    expect(second!.at - first!.at).to.be.at.least(400);
    expect(second!.verifiedBy).to.be.at.least(0);
  });

  it('when the secret is rotated, then both signatures are sent and a receiver with either verifies', async () => {
    const rule = await createRule();
    const rotated = (await call('POST', `/api/alerts/${rule.id}/secret`)).json as { secret: string };
    ctx.receiver.secrets.push(rotated.secret);
    const eventId = await sendTest(rule.id);
    const [got] = await eventually(() => (receivedOf(eventId).length > 0 ? receivedOf(eventId) : undefined));
    expect(got!.signature.split(' ')).to.have.length(2);
    const { Webhook } = await import('standardwebhooks');
    const headers = { 'webhook-id': got!.id, 'webhook-timestamp': got!.timestamp, 'webhook-signature': got!.signature };
    for (const secret of [rule.secret, rotated.secret]) expect(() => new Webhook(secret).verify(got!.body, headers)).to.not.throw();
  });

  it('when events were delivered and failed, then /metrics counts them by outcome, with the latency histogram', async () => {
    const metrics = (await http(`${ctx.stack.apiUrl}/metrics`)).body.toString('utf8');
    expect(metrics).to.match(/market_alert_deliveries_total\{outcome="delivered",kind="webhook"\} [1-9]/);
    expect(metrics).to.match(/market_alert_deliveries_total\{outcome="failed",kind="webhook"\} [1-9]/);
    expect(metrics).to.match(/market_alert_deliveries_total\{outcome="retrying",kind="webhook"\} [1-9]/);
    expect(metrics).to.match(/market_alert_delivery_latency_seconds_bucket\{le="\+Inf"\} [1-9]/);
    expect(metrics).to.match(/market_alert_delivery_latency_seconds_count [1-9]/);
  });
});

describe('alerts: a receiver down for 30 s', () => {
  // The production schedule's shape at a second's scale (1 s doubled up to 4 s, ±20 %): its 15 attempts span
  // about 50 s, so an outage of 30 s is outlived as a day-long one is by the real schedule (10 s up to 6 h).
  const { ctx, createRule, sendTest, attempts, receivedOf } = suite(1, {
    ...ENV,
    ALERTS_RETRY_BASE_MS: '1000',
    ALERTS_RETRY_MAX_DELAY_MS: '4000',
    // The default lock: nothing is killed here, and the other suites' 2 s lock can take a loaded
    // machine's slow attempt for a stalled one.
    ALERTS_DELIVERY_LOCK_MS: '30000',
    // The retry schedule alone: a paused host (alert-delivery-caps.test.ts) would space the attempts by its pause.
    ALERTS_HOST_PAUSE_AFTER: '1000',
  });

  it('when the receiver is down for 30 s then up, then the event is delivered, verified, with the same webhook-id as every failed attempt', async function () {
    this.timeout(90_000);
    const rule = await createRule();
    await ctx.receiver.stop();
    const eventId = await sendTest(rule.id);
    // Down for 30 s by the attempts log: a failed attempt 30 s after the first (no blind sleep).
    const failedOver = (log: DeliveryAttempt[]) => {
      const times = log.filter((a) => a.outcome === 'retrying').map((a) => Date.parse(a.at));
      return times.length > 0 ? Math.max(...times) - Math.min(...times) : 0;
    };
    await eventually(
      async () => {
        const log = await attempts(rule.id);
        if (failedOver(log) >= 30_000) return true;
        // Said in the timeout's message, should the retries stop early.
        const other = log.find((a) => a.outcome !== 'retrying');
        if (other) throw new Error(`an attempt that is not a retry, after ${log.length}: ${JSON.stringify(other)}`);
        return undefined;
      },
      60_000,
      'failed attempts over 30 s',
    );
    await ctx.receiver.start();
    const [delivered] = await eventually(() => (receivedOf(eventId).length > 0 ? receivedOf(eventId) : undefined), 15_000, 'the delivery');
    expect(delivered!.verifiedBy).to.equal(0);
    const log = await eventually(async () => {
      const all = await attempts(rule.id);
      return all.some((a) => a.outcome === 'delivered') ? all : undefined;
    });
    expect(new Set(log.map((a) => a.eventId))).to.deep.equal(new Set([eventId]));
    expect(log.filter((a) => a.outcome === 'retrying').every((a) => /ECONNREFUSED/.test(a.error ?? ''))).to.equal(true);
    expect(receivedOf(eventId)).to.have.length(1);
  });
});

describe('alerts: a delivery worker SIGKILLed mid-delivery', () => {
  const { ctx, createRule, sendTest, receivedOf } = suite(0);
  let child: ChildProcess | undefined;
  after(() => child?.kill('SIGKILL'));

  it('when the worker dies while the receiver holds the request, then another worker delivers the event with the same webhook-id', async function () {
    this.timeout(40_000);
    const rule = await createRule();
    ctx.receiver.answer = (request) => (receivedOf(request.id).length === 1 ? 'hold' : 200);
    child = spawn(process.execPath, ['--import', 'tsx', 'test/support/delivery-worker-child.ts'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...ctx.stack.redisEnv, ...ENV },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await once(child.stdout!, 'data');
    const eventId = await sendTest(rule.id);
    await eventually(() => (receivedOf(eventId).length === 1 ? true : undefined), 15_000, 'the first attempt, held');
    child.kill('SIGKILL');
    await once(child, 'exit');
    await ctx.stack.startWorkers(1);
    const all = await eventually(() => (receivedOf(eventId).length >= 2 ? receivedOf(eventId) : undefined), 30_000, 'the redelivery');
    expect(all.every((r) => r.id === eventId && r.verifiedBy >= 0)).to.equal(true);
  });
});
