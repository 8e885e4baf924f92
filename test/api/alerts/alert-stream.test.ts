import { expect } from 'chai';
import type { Queue } from 'bullmq';
import type { AlertEvaluator } from '../../../apps/worker/src/alerts/evaluator.js';
import type { AlertEvent } from '../../../shared/alerts/alert-types.js';
import { ALERT_DELIVERY_QUEUE, type DeliveryJobData } from '../../../shared/alerts/delivery-queue.js';
import type { TrendingToken } from '../../../shared/market-types.js';
import { http } from '../../support/http.js';
import { SseClient } from '../../support/sse.js';
import { stackEvaluator } from '../../support/alert-evaluator.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { seedUser, tokenFor } from '../auth/helpers.js';

const item = (token: string): TrendingToken => ({ token, name: token, mentions: 1, smartMoneyMentions: 0, priceChange24h: 0 });

describe('alerts: GET /api/alerts/stream', () => {
  let stack: Stack;
  let queue: Queue<DeliveryJobData>;
  let evaluator: AlertEvaluator;
  const tokens: Record<string, string> = {};
  let refresh = 0;

  const rankRule = async (who: string) => {
    const answer = await http(`${stack.apiUrl}/api/alerts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens[who]!}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: `${who}'s`,
        condition: { type: 'rank', token: 'SOL', top: 1 },
        channels: [{ type: 'webhook', url: 'http://127.0.0.1:9/x' }],
      }),
    });
    return (answer.json as { id: string }).id;
  };
  /** SOL enters the top 1: every rank rule on SOL fires. */
  const solEnters = () =>
    evaluator.evaluate(
      `stream:${++refresh}`,
      new Date().toISOString(),
      { trending: { previous: [item('BTC'), item('SOL')], current: [item('SOL'), item('BTC')], window: [] } },
      [['rank', 'SOL']],
    );
  const connect = (who: string, headers: Record<string, string> = {}) =>
    SseClient.connect(`${stack.apiUrl}/api/alerts/stream`, { Authorization: `Bearer ${tokens[who]!}`, ...headers });

  before(async () => {
    stack = await startStack({ workers: 0, env: { ALERTS_ALLOW_LOOPBACK: 'true' } });
    for (const who of ['fay', 'gus']) {
      await seedUser(stack, `${who}@example.com`, `${who} password 12`);
      tokens[who] = await tokenFor(stack, `${who}@example.com`, `${who} password 12`);
    }
    queue = stack.queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE);
    evaluator = stackEvaluator(stack, queue);
  });
  after(async () => {
    await queue.close();
    await stack.close();
  });

  it('when the caller’s rules fire, then the caller hears them live, another user does not, and Last-Event-ID resumes', async () => {
    const faysRule = await rankRule('fay');
    const fay = await connect('fay');
    const gus = await connect('gus');
    expect(fay.status).to.equal(200);
    expect(fay.headers['content-type']).to.match(/^text\/event-stream/);
    await solEnters();
    const [first] = await eventually(() => (fay.events.length === 1 ? fay.events : undefined), 5000, 'the live event');
    expect(first!.event).to.equal('alert');
    expect((JSON.parse(first!.data) as AlertEvent).data.ruleId).to.equal(faysRule);

    // gus's own rule fires after fay's: when gus hears it, he has heard nothing of fay's.
    const gusRule = await rankRule('gus');
    await solEnters();
    await eventually(() => (gus.events.length >= 1 ? true : undefined), 5000, 'gus hears his own');
    expect(gus.events.map((e) => (JSON.parse(e.data) as AlertEvent).data.ruleId)).to.deep.equal([gusRule]);
    await eventually(() => (fay.events.length === 2 ? true : undefined), 5000);
    fay.close();
    gus.close();

    const resumed = await connect('fay', { 'Last-Event-ID': first!.id! });
    await eventually(() => (resumed.events.length === 1 ? true : undefined), 5000, 'the replay');
    expect(resumed.events[0]!.id).to.equal(fay.events[1]!.id);
    resumed.close();
  });

  it('when there is no credential or a bad Last-Event-ID, then 401 or 400', async () => {
    expect((await http(`${stack.apiUrl}/api/alerts/stream`)).status).to.equal(401);
    const bad = await http(`${stack.apiUrl}/api/alerts/stream`, {
      headers: { Authorization: `Bearer ${tokens.fay!}`, 'Last-Event-ID': 'yesterday' },
    });
    expect(bad.status).to.equal(400);
    expect(bad.json).to.deep.equal({ error: 'Invalid Last-Event-ID' });
  });
});
