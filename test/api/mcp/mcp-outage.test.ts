/** A tool call while Redis is down: a tool error within a second, never a hang; reads held in memory still answer. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';
import { http } from '../../support/http.js';
import { startTestRedis, type TestRedis } from '../../support/redis-server.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { callTool, connectMcp, toolErrorOf } from './helpers.js';

describe('MCP: when Redis goes away', function () {
  this.timeout(60_000);
  let redis: TestRedis;
  let stack: Stack;
  let client: Client;

  before(async () => {
    redis = await startTestRedis();
    stack = await startStack({ redisUrl: redis.url });
    await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 15_000, 'readiness');
    client = await connectMcp(stack.apiUrl);
  });
  after(async () => {
    await client?.close();
    // Closing the workers and queues needs Redis back, and every connection on it again.
    await redis?.start();
    await eventually(
      async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined),
      30_000,
      'readiness after the outage',
    );
    await stack?.close();
    await redis?.stop();
  });

  it('then a lookup that needs Redis is a tool error "Service unavailable" within a second, and held snapshots still answer', async () => {
    const before = await callTool(client, 'trending_tokens');
    await redis.stop();

    const started = Date.now();
    const error = toolErrorOf(await callTool(client, 'username_stats', { username: stack.sim.trackedUsernames()[2]! }));
    expect(Date.now() - started).to.be.below(1000);
    expect(error).to.include({ error: 'Service unavailable', status: 503 });
    expect(error.retryAfterSeconds).to.be.greaterThan(0);

    const during = await callTool(client, 'trending_tokens');
    expect(during.isError).not.to.equal(true);
    expect(during.structuredContent).to.deep.equal(before.structuredContent);
  });
});
