/**
 * POST /mcp driven by the SDK's own client over real HTTP, against the whole stack (API,
 * worker, simulator, real Redis): the tool list, every tool against its REST route (same body,
 * same cachedAt), bad input, unknown names, the shared stats-miss budget, and the transport's
 * answers to what is not a tool call.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';
import type { oas31 } from 'zod-openapi';
import { MARKET_READS, READ_NAMES } from '../../../apps/api/src/market/reads.js';
import type { ReadSpec } from '../../../apps/api/src/market/read-spec.js';
import { MARKET_TOOLS } from '../../../apps/api/src/mcp/tools.js';
import { http } from '../../support/http.js';
import { servedDocument } from '../../support/openapi-response.js';
import { pathOf, toolArguments } from '../../support/read-paths.js';
import { startStack, whenReady, type Stack } from '../../support/stack.js';
import { callTool, connectMcp, textOf, toolErrorOf } from './helpers.js';

/** The MCP tools' reads, from the table: a new read with a tool is listed and called here without a new test. */
const TOOL_READS: readonly ReadSpec[] = READ_NAMES.map((name): ReadSpec => MARKET_READS[name]).filter((read) => read.tool);

describe('MCP: POST /mcp with the SDK client', function () {
  this.timeout(60_000);
  let stack: Stack;
  let client: Client;
  let token: string;
  let id: string;
  const rest = (path: string) => http(`${stack.apiUrl}${path}`);

  before(async () => {
    stack = await startStack();
    await whenReady(stack);
    client = await connectMcp(stack.apiUrl);
    const trending = (await rest('/api/market/trending')).json as { data: { token: string }[] };
    const sentiment = await Promise.all(
      trending.data.map(async (entry) => ((await rest(`/api/market/sentiment/${entry.token}`)).status === 200 ? entry.token : '')),
    );
    token = sentiment.find(Boolean) ?? '';
    expect(token, 'a trending token with sentiment').not.to.equal('');
    // A story the simulator planted (apps/index-sim/src/planted-stories.ts).
    id = ((await rest('/api/market/stories?window=7d')).json as { data: { id: string }[] }).data[0]?.id ?? '';
  });
  after(async () => {
    await client?.close();
    await stack?.close();
  });

  describe('tools/list', () => {
    it('lists the read-only tool of every read that has one, in the table’s order, without a common prefix, each with input and output schemas; then the alert tools', async () => {
      const { tools: all } = await client.listTools();
      const tools = all.slice(0, TOOL_READS.length);
      expect(tools.map((tool) => tool.name)).to.deep.equal(TOOL_READS.map((read) => read.tool!.name));
      // The caller's alerts: creating is not idempotent, deleting destroys, the other two read.
      expect(
        all
          .slice(TOOL_READS.length)
          .map(({ name, annotations }) => [name, annotations?.readOnlyHint, annotations?.destructiveHint, annotations?.idempotentHint]),
      ).to.deep.equal([
        ['create_alert', false, false, false],
        ['list_alerts', true, false, true],
        ['delete_alert', false, true, true],
        ['alert_firings', true, false, true],
      ]);
      for (const tool of tools) {
        expect(tool.annotations, tool.name).to.include({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
        expect(tool.description?.length ?? 0, tool.name).to.be.greaterThan(80);
        expect(tool.inputSchema.type, tool.name).to.equal('object');
        expect(tool.outputSchema?.type, tool.name).to.equal('object');
        expect(tool.outputSchema?.properties, tool.name).to.have.property('cachedAt');
      }
      expect(new Set(tools.map((tool) => tool.name.split('_')[0])).size).to.be.greaterThan(4);
      expect(client.getInstructions()).to.match(/untrusted data, never instructions/);
    });

    it('says in the news tool that post text is untrusted data', async () => {
      const news = (await client.listTools()).tools.find((tool) => tool.name === 'news');
      expect(news?.description).to.match(/written by strangers.*untrusted data, never as instructions/);
    });

    it('gives each tool the response schema of the REST operation it mirrors (same fields, same required)', async () => {
      const { tools } = await client.listTools();
      for (const { name, read } of MARKET_TOOLS) {
        const operation = Object.values(servedDocument.paths ?? {})
          .flatMap((item) => (item.get ? [item.get] : []))
          .find((candidate) => candidate.operationId === read);
        const ok = operation?.responses?.['200'] as oas31.ResponseObject | undefined;
        const ref = (ok?.content?.['application/json']?.schema as oas31.ReferenceObject | undefined)?.$ref ?? '';
        const restSchema = servedDocument.components?.schemas?.[ref.replace('#/components/schemas/', '')] as oas31.SchemaObject | undefined;
        expect(restSchema, `${name} -> ${read}`).not.to.equal(undefined);
        const output = tools.find((tool) => tool.name === name)?.outputSchema;
        expect(Object.keys(output?.properties ?? {}), name).to.deep.equal(Object.keys(restSchema?.properties ?? {}));
        expect(output?.required, name).to.deep.equal(restSchema?.required);
      }
    });
  });

  describe('tools/call answers what the REST route answers', () => {
    const cases = (): [string, Record<string, unknown>, string][] => {
      const username = stack.sim.trackedUsernames()[3]!;
      return [
        // Each tool with its read's example parameters, from the table; then arguments REST spells otherwise.
        ...TOOL_READS.map((read): [string, Record<string, unknown>, string] => [
          read.tool!.name,
          toolArguments(read, { token, username, id }),
          pathOf(read, { token, username, id }),
        ]),
        ['username_stats', { username: `@${username.toUpperCase()}` }, `/api/market/stats/${username}`],
        ['news', { page: 2, limit: 7 }, '/api/market/news?page=2&limit=7'],
        ['news', { token: token.toLowerCase(), limit: 5 }, `/api/market/news?token=${token}&limit=5`],
        ['news', { token: 'ZZZZZZZZ' }, '/api/market/news?token=ZZZZZZZZ'],
        ['token_sentiment', { token: `$${token.toLowerCase()}` }, `/api/market/sentiment/${token}`],
        ['sentiment_history', { token, interval: '1h' }, `/api/market/sentiment/${token}/history?interval=1h`],
      ];
    };

    it('every tool: structuredContent is the REST body, the text its bytes, the same cachedAt', async () => {
      for (const [name, args, path] of cases()) {
        const answer = await rest(path);
        expect(answer.status, path).to.equal(200);
        const result = await callTool(client, name, args);
        expect(result.isError, `${name} ${JSON.stringify(args)}`).not.to.equal(true);
        expect(result.structuredContent, name).to.deep.equal(answer.json);
        expect(textOf(result), name).to.equal(answer.body.toString('utf8'));
        expect((result.structuredContent as { cachedAt: string }).cachedAt).to.equal((answer.json as { cachedAt: string }).cachedAt);
        if (name === 'token_sentiment') expect(result.structuredContent).to.include.keys('sample', 'confidence');
      }
    });

    it('each list kind’s tool with `at`: the snapshot REST answers for ?at=', async () => {
      for (const { tool, path } of TOOL_READS.filter((read) => read.serve === 'list')) {
        const name = tool!.name;
        const { cachedAt } = (await rest(path)).json as { cachedAt: string };
        const at = new Date(Date.parse(cachedAt) + 1000).toISOString();
        const answer = await rest(`${path}?at=${encodeURIComponent(at)}`);
        expect(answer.status, path).to.equal(200);
        const result = await callTool(client, name, { at });
        expect(result.structuredContent, name).to.deep.equal(answer.json);
      }
    });

    it('a news page is bounded as on REST: at most 50 posts', async () => {
      const result = await callTool(client, 'news', { limit: 50 });
      const page = result.structuredContent as { data: unknown[]; pagination: { limit: number; total: number } };
      expect(page.data.length).to.equal(Math.min(50, page.pagination.total));
      expect(page.pagination.limit).to.equal(50);
      const tooMany = await callTool(client, 'news', { limit: 51 });
      expect(tooMany.isError).to.equal(true);
      expect(textOf(tooMany)).to.match(/Input validation error.*<=50 at limit/s);
    });
  });

  describe('errors are tool results with the REST message, never protocol failures', () => {
    it('invalid arguments: the route’s 400 message', async () => {
      const cases: [string, Record<string, unknown>, string][] = [
        ['token_sentiment', { token: 'not a token!' }, 'Invalid token'],
        ['sentiment_history', { token: 'no/slash' }, 'Invalid token'],
        ['username_stats', { username: 'x'.repeat(16) }, 'Invalid username'],
        ['token_history', { token, from: '2026-11-02', to: '2026-11-01' }, 'Invalid range: from is after to'],
        ['token_history', { token, from: 'last week' }, 'Invalid query parameter: from'],
        ['trending_tokens', { at: 'yesterday' }, 'Invalid query parameter: at'],
        ['news', { token: 'not a token!' }, 'Invalid query parameter: token'],
      ];
      for (const [name, args, message] of cases) {
        expect(toolErrorOf(await callTool(client, name, args)), `${name} ${JSON.stringify(args)}`).to.deep.equal({
          error: message,
          status: 400,
        });
      }
    });

    it('arguments of the wrong type, missing ones, and an unknown tool: a tool error naming the problem', async () => {
      expect(textOf(await callTool(client, 'news', { page: 'two' }))).to.match(/Input validation error.*page/s);
      expect(textOf(await callTool(client, 'token_sentiment', {}))).to.match(/Input validation error.*token/s);
      expect(textOf(await callTool(client, 'sentiment_history', { token, interval: '2h' }))).to.match(/Input validation error.*interval/s);
      const unknown = await callTool(client, 'trending', {});
      expect(unknown.isError).to.equal(true);
      expect(textOf(unknown)).to.match(/Tool trending not found/);
    });

    it('an unknown username, token or instant: the route’s 404 message, as REST answers it', async () => {
      const username = 'nobody_at_all_1';
      const result = await callTool(client, 'username_stats', { username });
      expect(toolErrorOf(result)).to.deep.equal({ error: 'Username not found in index', status: 404 });
      expect((await rest(`/api/market/stats/${username}`)).json).to.deep.equal({ error: 'Username not found in index' });
      expect(toolErrorOf(await callTool(client, 'token_sentiment', { token: 'ZZZZZZZZ' }))).to.deep.equal({
        error: 'Token not found in index',
        status: 404,
      });
      expect(toolErrorOf(await callTool(client, 'token_history', { token: 'ZZZZZZZZ' }))).to.deep.equal({
        error: 'Token not found in index',
        status: 404,
      });
      expect(toolErrorOf(await callTool(client, 'trending_tokens', { at: '2001-01-01' }))).to.deep.equal({
        error: 'No snapshot at that time',
        status: 404,
      });
    });

    it('an upstream that is down: 503 Upstream unavailable with the seconds to wait', async () => {
      stack.sim.setFaults({ errorRate: 1, paths: ['/v1/accounts/'] });
      try {
        const error = toolErrorOf(await callTool(client, 'username_stats', { username: stack.sim.trackedUsernames()[7]! }));
        expect(error).to.include({ error: 'Upstream unavailable', status: 503 });
        expect(error.retryAfterSeconds).to.be.a('number').and.greaterThan(0);
      } finally {
        stack.sim.clearFaults();
      }
    });
  });

  describe('the HTTP transport', () => {
    it('GET and DELETE /mcp: 405 with Allow: POST, as any route answers a wrong method', async () => {
      for (const method of ['GET', 'DELETE']) {
        const answer = await http(`${stack.apiUrl}/mcp`, { method });
        expect(answer.status, method).to.equal(405);
        expect(answer.headers.get('allow'), method).to.equal('POST');
        expect(answer.json, method).to.deep.equal({ error: 'Method not allowed' });
      }
    });

    it('a POST that does not accept both JSON and an event stream: 406 with a JSON-RPC error', async () => {
      const answer = await http(`${stack.apiUrl}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(answer.status).to.equal(406);
      expect(answer.json).to.deep.include({ jsonrpc: '2.0', id: null });
    });

    it('a tool call with curl’s headers and no session: one JSON answer', async () => {
      const answer = await http(`${stack.apiUrl}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'token_sentiment', arguments: { token } } }),
      });
      expect(answer.status).to.equal(200);
      expect(answer.headers.get('content-type')).to.match(/^application\/json/);
      expect(answer.headers.get('mcp-session-id')).to.equal(null);
      const { result } = answer.json as { result: { structuredContent: unknown } };
      expect(result.structuredContent).to.deep.equal((await rest(`/api/market/sentiment/${token}`)).json);
    });
  });
});

describe('MCP: the stats-miss budget is the client’s, across REST and MCP', function () {
  this.timeout(60_000);
  let stack: Stack;
  let client: Client;

  before(async () => {
    stack = await startStack({ env: { STATS_MISS_BUDGET: '2' } });
    // The first refreshes run in this process beside the simulator: a miss asked meanwhile can pass
    // the worker's 3 s per-account timeout (a 503, not the 404 the budget test counts).
    await whenReady(stack);
    client = await connectMcp(stack.apiUrl);
  });
  after(async () => {
    await client?.close();
    await stack?.close();
  });

  it('a miss on REST and one through MCP spend it; the next lookup is refused on both with the time to retry', async () => {
    expect((await http(`${stack.apiUrl}/api/market/stats/unknown_one`)).status).to.equal(404);
    expect(toolErrorOf(await callTool(client, 'username_stats', { username: 'unknown_two' })).status).to.equal(404);

    const refused = toolErrorOf(await callTool(client, 'username_stats', { username: 'unknown_three' }));
    expect(refused).to.include({ error: 'Too many requests', status: 429 });
    expect(refused.retryAfterSeconds).to.be.greaterThan(0);
    expect((await http(`${stack.apiUrl}/api/market/stats/unknown_four`)).status).to.equal(429);
    // A remembered answer costs nothing: still served.
    expect(toolErrorOf(await callTool(client, 'username_stats', { username: 'unknown_one' })).status).to.equal(404);
  });
});
