/**
 * The alert tools over real HTTP MCP (the SDK's client) against a real Redis: a bot creates,
 * lists and deletes its rules and reads its firings with its API key, gets the REST route's
 * messages, and never sees or deletes another user's rule or hears another user's firings.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Queue } from 'bullmq';
import { expect } from 'chai';
import type { AlertEvaluator } from '../../../apps/worker/src/alerts/evaluator.js';
import type { AlertEvent } from '../../../shared/alerts/alert-types.js';
import { ALERT_DELIVERY_QUEUE, type DeliveryJobData } from '../../../shared/alerts/delivery-queue.js';
import type { TrendingToken } from '../../../shared/market-types.js';
import { http } from '../../support/http.js';
import { stackEvaluator } from '../../support/alert-evaluator.js';
import { startStack, type Stack } from '../../support/stack.js';
import { seedUser, tokenFor } from '../auth/helpers.js';
import { callTool, connectMcp, toolErrorOf } from './helpers.js';

const item = (token: string): TrendingToken => ({ token, name: token, mentions: 1, smartMoneyMentions: 0, priceChange24h: 0 });
const rankRule = (name: string) => ({
  name,
  condition: { type: 'rank', token: '$sol', top: 1 },
  channels: [{ type: 'webhook', url: 'http://127.0.0.1:9/hook' }],
});

describe('MCP: the alert tools act for the caller’s key', () => {
  let stack: Stack;
  let queue: Queue<DeliveryJobData>;
  let evaluator: AlertEvaluator;
  let alice: Client;
  let bob: Client;
  let anonymous: Client;
  let aliceJwt: string;
  let refresh = 0;

  const keyOf = async (email: string) => (await stack.deps.apiKeys.create(stack.deps.auth.users, email, 'bot'))!.key;
  const structured = <T>(result: Awaited<ReturnType<typeof callTool>>): T => {
    expect(result.isError, JSON.stringify(result.content)).to.not.equal(true);
    return result.structuredContent as T;
  };

  before(async () => {
    stack = await startStack({ workers: 0, env: { ALERTS_ALLOW_LOOPBACK: 'true', ALERTS_MAX_PER_USER: '3' } });
    await seedUser(stack, 'alice@example.com', 'alice password 1');
    await seedUser(stack, 'bob@example.com', 'bob password 12');
    aliceJwt = await tokenFor(stack, 'alice@example.com', 'alice password 1');
    alice = await connectMcp(stack.apiUrl, { 'X-Api-Key': await keyOf('alice@example.com') });
    bob = await connectMcp(stack.apiUrl, { 'X-Api-Key': await keyOf('bob@example.com') });
    anonymous = await connectMcp(stack.apiUrl);
    queue = stack.queue<DeliveryJobData>(ALERT_DELIVERY_QUEUE);
    evaluator = stackEvaluator(stack, queue);
  });
  after(async () => {
    for (const client of [alice, bob, anonymous]) await client?.close();
    await queue?.close();
    await stack?.close();
  });

  it('when a bot creates a rule with its key, then it gets the secret once, and the rule is its user’s over MCP and REST alike', async () => {
    const created = structured<{ id: string; secret: string; condition: { token: string } }>(
      await callTool(alice, 'create_alert', rankRule('SOL on top')),
    );
    expect(created.secret).to.match(/^whsec_/);
    expect(created.condition.token).to.equal('SOL');
    const listed = structured<{ data: { id: string }[] }>(await callTool(alice, 'list_alerts'));
    expect(listed.data.map((rule) => rule.id)).to.deep.equal([created.id]);
    expect(JSON.stringify(listed)).to.not.include(created.secret);
    const rest = await http(`${stack.apiUrl}/api/alerts`, { headers: { Authorization: `Bearer ${aliceJwt}` } });
    expect(rest.json).to.deep.equal(listed);

    expect(structured(await callTool(alice, 'delete_alert', { id: created.id }))).to.deep.equal({ deleted: created.id });
    expect(structured<{ data: unknown[] }>(await callTool(alice, 'list_alerts')).data).to.deep.equal([]);
  });

  it('when the arguments are bad or the maximum is reached, then the tool error is the REST route’s 400', async () => {
    const body = { ...rankRule('bad'), condition: { type: 'rank', token: 'not a token!', top: 1 } };
    const rest = await http(`${stack.apiUrl}/api/alerts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${aliceJwt}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(rest.status).to.equal(400);
    expect(toolErrorOf(await callTool(alice, 'create_alert', body))).to.deep.equal({ ...(rest.json as object), status: 400 });
    expect(toolErrorOf(await callTool(alice, 'create_alert', { name: 'no condition' }))).to.deep.equal({
      error: 'Invalid field: condition',
      status: 400,
    });

    for (const n of [1, 2, 3]) structured(await callTool(alice, 'create_alert', rankRule(`rule ${n}`)));
    expect(toolErrorOf(await callTool(alice, 'create_alert', rankRule('one too many')))).to.deep.equal({
      error: 'Too many alerts: at most 3 per user',
      status: 400,
    });
    for (const rule of structured<{ data: { id: string }[] }>(await callTool(alice, 'list_alerts')).data)
      structured(await callTool(alice, 'delete_alert', { id: rule.id }));
  });

  it('when another user’s key lists, deletes or reads firings, then it sees nothing of the rule, 404 on delete, and the rule stays', async () => {
    const { id } = structured<{ id: string }>(await callTool(alice, 'create_alert', rankRule('mine')));
    const bobsOwn = structured<{ id: string }>(await callTool(bob, 'create_alert', rankRule('bob’s')));
    // SOL enters the top 1: both rules fire.
    const fired = await evaluator.evaluate(
      `mcp:${++refresh}`,
      new Date().toISOString(),
      { trending: { previous: [item('BTC'), item('SOL')], current: [item('SOL'), item('BTC')], window: [] } },
      [['rank', 'SOL']],
    );
    expect(fired).to.equal(2);

    expect(structured<{ data: { id: string }[] }>(await callTool(bob, 'list_alerts')).data.map((rule) => rule.id)).to.deep.equal([
      bobsOwn.id,
    ]);
    expect(toolErrorOf(await callTool(bob, 'delete_alert', { id }))).to.deep.equal({ error: 'Alert not found', status: 404 });
    const firingsOf = async (client: Client) =>
      structured<{ data: { id: string; event: AlertEvent }[] }>(await callTool(client, 'alert_firings', { limit: 10 })).data;
    expect((await firingsOf(bob)).map((firing) => firing.event.data.ruleId)).to.deep.equal([bobsOwn.id]);
    const alices = await firingsOf(alice);
    expect(alices.map((firing) => firing.event.data.ruleId)).to.deep.equal([id]);
    expect(alices[0]!.event.type).to.equal('alert.fired');
    expect(alices[0]!.id).to.match(/^\d+-\d+$/);

    expect(structured<{ data: { id: string }[] }>(await callTool(alice, 'list_alerts')).data.map((rule) => rule.id)).to.deep.equal([id]);
    structured(await callTool(alice, 'delete_alert', { id }));
    structured(await callTool(bob, 'delete_alert', { id: bobsOwn.id }));
  });

  it('when no key comes with the call, then every alert tool answers 401', async () => {
    for (const [name, args] of [
      ['create_alert', rankRule('anonymous')],
      ['list_alerts', {}],
      ['delete_alert', { id: 'alr_AAAAAAAAAAAAAAAA' }],
      ['alert_firings', {}],
    ] as const)
      expect(toolErrorOf(await callTool(anonymous, name, args)), name).to.deep.equal({ error: 'Missing token', status: 401 });
  });
});
