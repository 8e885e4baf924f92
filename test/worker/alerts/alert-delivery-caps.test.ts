/**
 * Issue 46, item 4: what one user's deliveries may hold, and a failing receiver host. A user's
 * outstanding deliveries are held to ALERTS_USER_OUTSTANDING_MAX (the oldest dropped, each
 * recorded on its rule's log); the whole queue to ALERTS_QUEUE_MAX (a firing past it is dropped and
 * recorded); a host that fails ALERTS_HOST_PAUSE_AFTER attempts in a row is paused, one probe per
 * ALERTS_HOST_PAUSE_MS, and delivered to again once it answers. Real HTTP, real Redis, the stack's
 * queue, a worker process started for the pause, a loopback receiver.
 */
import { expect } from 'chai';
import type { Queue } from 'bullmq';
import { ALERT_DELIVERY_QUEUE, type DeliveryJobData } from '../../../shared/alerts/delivery-queue.js';
import type { DeliveryAttempt } from '../../../shared/alerts/alert-store.js';
import { solPost as post } from '../../support/news-item.js';
import { stackEvaluator } from '../../support/alert-evaluator.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { callAs, loggedInUsers } from '../../api/auth/helpers.js';

const CHANNELS = 5;
const postAbout = (id: string, token: string) => ({ ...post(id), text: `${id} about ${token}`, tokens: [token] });

describe('alerts: delivery caps and paused hosts', () => {
  let stack: Stack;
  let receiver: Receiver;
  let queue: Queue<DeliveryJobData>;
  const tokens: Record<string, string> = {};
  before(async () => {
    // No worker at first: the queued deliveries stay queued while the caps are counted.
    stack = await startStack({
      workers: 0,
      env: {
        ALERTS_ALLOW_LOOPBACK: 'true',
        REFRESH_INTERVAL: '24h',
        ALERTS_USER_OUTSTANDING_MAX: '10',
        ALERTS_QUEUE_MAX: '12',
        ALERTS_HOST_PAUSE_AFTER: '3',
        ALERTS_HOST_PAUSE_MS: '2000',
        ALERTS_RETRY_BASE_MS: '100',
      },
    });
    receiver = await startReceiver();
    queue = stack.queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE);
    Object.assign(tokens, await loggedInUsers(stack, ['kim', 'lee', 'max']));
  });
  after(async () => {
    await receiver?.close();
    await queue?.close();
    await stack?.close();
  });
  const call = (user: string, method: string, path: string, body?: unknown) => callAs(stack, tokens[user], method, path, body);
  const createRule = async (user: string, token: string, paths: string[]) => {
    const answer = await call(user, 'POST', '/api/alerts', {
      name: 'caps',
      condition: { type: 'post', token },
      channels: paths.map((path) => ({ type: 'webhook', url: receiver.url(path) })),
    });
    expect(answer.status, JSON.stringify(answer.json)).to.equal(201);
    const rule = answer.json as { id: string; secret: string };
    receiver.secrets.push(rule.secret);
    return rule.id;
  };
  const droppedOf = async (user: string, ruleId: string) =>
    ((await call(user, 'GET', `/api/alerts/${ruleId}/deliveries`)).json as { data: DeliveryAttempt[] }).data.filter(
      (attempt) => attempt.outcome === 'dropped',
    );
  const paths = (prefix: string) => Array.from({ length: CHANNELS }, (_, n) => `/${prefix}${n}`);
  const queued = async () => {
    const counts = await queue.getJobCounts('waiting', 'delayed', 'active');
    return (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.active ?? 0);
  };

  it('when a user’s firings queue 20 deliveries past a cap of 10, then the 10 oldest are dropped and recorded, the newest kept', async () => {
    const ruleId = await createRule('kim', 'SOL', paths('kim'));
    const evaluator = stackEvaluator(stack, queue);
    for (let refresh = 1; refresh <= 4; refresh++) {
      const facts = { news: { previousIds: new Set<string>(), current: [postAbout(`kim-${refresh}`, 'SOL')] } };
      expect(await evaluator.evaluate(`caps-${refresh}`, new Date().toISOString(), facts, [['post', 'SOL']])).to.equal(1);
    }
    expect(await queued(), 'deliveries queued').to.equal(10);
    const kept = (await queue.getJobs(['waiting'])).map((job) => (job.data.event.data.matches[0] as { postId: string }).postId);
    expect([...new Set(kept)].sort(), 'the newest two firings kept').to.deep.equal(['kim-3', 'kim-4']);
    const dropped = await droppedOf('kim', ruleId);
    expect(dropped).to.have.length(10);
    expect(dropped[0]!.error).to.match(/more than 10 deliveries outstanding/);
  });

  it('when the whole queue is at ALERTS_QUEUE_MAX, then another user’s firing is dropped and recorded, not queued', async () => {
    const ruleId = await createRule('lee', 'ETH', ['/lee']);
    const evaluator = stackEvaluator(stack, queue);
    const fire = (id: string) =>
      evaluator.evaluate(id, new Date().toISOString(), { news: { previousIds: new Set(), current: [postAbout(id, 'ETH')] } }, [
        ['post', 'ETH'],
      ]);
    // 10 of kim's queued: lee's first two fit under 12, the third finds the queue full.
    for (const id of ['lee-1', 'lee-2', 'lee-3']) await fire(id);
    expect(await queued()).to.equal(12);
    const dropped = await droppedOf('lee', ruleId);
    expect(dropped.map((attempt) => attempt.error)).to.deep.equal(['not sent: the delivery queue was full (12 deliveries waiting)']);
    expect((await call('lee', 'POST', `/api/alerts/${ruleId}/test`)).status, 'a test send meanwhile').to.equal(503);
  });

  it('when a receiver host fails 3 attempts in a row, then it is paused: one probe every 2 s, and every delivery arrives once it answers', async function () {
    this.timeout(40_000);
    await queue.obliterate({ force: true });
    receiver.received.length = 0;
    receiver.answer = 503;
    const ruleId = await createRule('max', 'BTC', paths('max'));
    await stack.startWorkers(1);
    expect((await call('max', 'POST', `/api/alerts/${ruleId}/test`)).status).to.equal(202);
    // Five attempts at once, all failing; after them one probe per pause. Without the pause the
    // retries (100 ms, doubling) would come a few hundred ms apart.
    await eventually(() => (receiver.received.length >= CHANNELS + 2 ? true : undefined), 15_000, 'two probes');
    const arrivals = receiver.received.map((got) => got.at);
    const gaps = arrivals.slice(CHANNELS).map((at, index) => at - arrivals[CHANNELS - 1 + index]!);
    expect(gaps, 'ms from each probe to the attempt before it').to.satisfy((list: number[]) => list.every((gap) => gap >= 1500));
    receiver.answer = 200;
    await eventually(
      async () => {
        const log = ((await call('max', 'GET', `/api/alerts/${ruleId}/deliveries`)).json as { data: DeliveryAttempt[] }).data;
        return new Set(log.filter((attempt) => attempt.outcome === 'delivered').map((attempt) => attempt.url)).size === CHANNELS
          ? true
          : undefined;
      },
      15_000,
      'every channel delivered once the host answers',
    );
  });
});
