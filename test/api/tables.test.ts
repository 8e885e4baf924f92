/**
 * Every entry of the tables gets what its entry promises, without a test of its own: each read of
 * apps/api/src/market/reads.ts answers on its route with the public CORS headers, the fast path
 * answers it as Koa would, its MCP tool answers its REST body; each kind of
 * shared/snapshot-kinds.ts is a stream topic announced when its refresh runs. (The schedules:
 * test/worker/schedules.test.ts; the OpenAPI paths: test/api/docs.test.ts.)
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../apps/api/src/app.js';
import { ALERT_TOOLS } from '../../apps/api/src/mcp/alert-tools.js';
import { fastReads } from '../../apps/api/src/routes/market/fast-reads.js';
import { MARKET_READS, READ_NAMES, type ReadSpec } from '../../apps/api/src/market/reads.js';
import { stopWebServer } from '../../apps/api/src/server.js';
import { REFRESH_JOBS, SNAPSHOTS } from '../../shared/snapshot-kinds.js';
import { http, rawGet } from '../support/http.js';
import { pathOf, toolArguments } from '../support/read-paths.js';
import { pinnedJobs, type PinnedJobs } from '../support/pinned-jobs.js';
import { SseClient } from '../support/sse.js';
import { eventually, startStack, type Stack } from '../support/stack.js';
import { callTool, connectMcp } from './mcp/helpers.js';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What two answers a moment apart may differ in. */
const PER_RESPONSE = new Set(['date', 'keep-alive', 'connection', 'cache-control', 'ratelimit', 'ratelimit-policy']);
const comparable = (answer: Awaited<ReturnType<typeof rawGet>>) => ({
  status: answer.status,
  headers: Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !PER_RESPONSE.has(name))),
  body: answer.body.toString('base64'),
});

describe('the tables: every read and every kind gets its route, fast path, tool and stream topic', function () {
  this.timeout(60_000);

  describe('each read of the table', () => {
    let stack: Stack;
    let mcp: Client;
    let examples: Record<string, string>;
    let withFastPath: Server;
    let koaOnly: Server;
    let answeredFast = 0;

    before(async () => {
      stack = await startStack();
      await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 30_000, 'ready');
      // A trending token that has sentiment, and a tracked account: every read's parameters have an answer.
      const trending = (await http(`${stack.apiUrl}/api/market/trending`)).json as { data: { token: string }[] };
      const withSentiment = await Promise.all(
        trending.data.map(async ({ token }) => ((await http(`${stack.apiUrl}/api/market/sentiment/${token}`)).status === 200 ? token : '')),
      );
      examples = { token: withSentiment.find(Boolean) ?? '', username: stack.sim.trackedUsernames()[0] ?? '' };
      expect(examples.token, 'a trending token with sentiment').to.not.equal('');
      mcp = await connectMcp(stack.apiUrl);
      const koa = createApp(stack.deps).callback();
      const fast = fastReads(stack.deps);
      withFastPath = createServer((req, res) => {
        if (fast(req, res)) answeredFast += 1;
        else void koa(req, res);
      });
      koaOnly = createServer((req, res) => void koa(req, res));
    });
    after(async () => {
      await mcp?.close();
      if (withFastPath?.listening) await stopWebServer(withFastPath, { idleCloseMs: 0 });
      if (koaOnly?.listening) await stopWebServer(koaOnly, { idleCloseMs: 0 });
      await stack?.close();
    });

    it('answers 200 on its route with a body of its response schema and the public CORS headers', async () => {
      for (const name of READ_NAMES) {
        const read: ReadSpec = MARKET_READS[name];
        const res = await http(`${stack.apiUrl}${pathOf(read, examples)}`);
        expect(res.status, name).to.equal(200);
        expect(res.headers.get('access-control-allow-origin'), name).to.equal('*');
        expect(read.response.safeParse(res.json).success, `${name}: its response schema`).to.equal(true);
      }
    });

    it('is answered by the fast path once held, with the status, headers and bytes Koa sends', async () => {
      const fastUrl = await listen(withFastPath);
      const koaUrl = await listen(koaOnly);
      for (const name of READ_NAMES) {
        const read: ReadSpec = MARKET_READS[name];
        const path = pathOf(read, examples);
        // The first read through Koa prepares the answer the fast path holds, as in production;
        // a stats hit is held for 1 s, so it is renewed right before.
        expect((await rawGet(`${koaUrl}${path}`, {})).status, name).to.equal(200);
        if (read.rateLimited) await stack.deps.stats.get(examples.username!.toLowerCase());
        const before = answeredFast;
        const fast = await rawGet(`${fastUrl}${path}`, { 'X-Request-Id': 'tables' });
        expect(answeredFast, `${name}: answered by the fast path`).to.equal(before + 1);
        const koa = await rawGet(`${koaUrl}${path}`, { 'X-Request-Id': 'tables' });
        expect(comparable(fast), name).to.deep.equal(comparable(koa));
      }
    });

    it('with a tool: tools/call answers its REST body, and tools/list lists exactly the reads with a tool (then the alert tools)', async () => {
      const withTool = READ_NAMES.filter((name) => MARKET_READS[name].tool);
      const tools = (await mcp.listTools()).tools.filter((tool) => !ALERT_TOOLS.some((alert) => alert.name === tool.name));
      expect(tools.map((tool) => tool.name).sort()).to.deep.equal(withTool.map((name) => MARKET_READS[name].tool!.name).sort());
      for (const name of withTool) {
        const read: ReadSpec = MARKET_READS[name];
        const rest = await http(`${stack.apiUrl}${pathOf(read, examples)}`);
        const result = await callTool(mcp, read.tool!.name, toolArguments(read, examples));
        expect(result.isError ?? false, name).to.equal(false);
        expect(result.structuredContent, name).to.deep.equal(rest.json);
      }
    });
  });

  describe('each snapshot kind', () => {
    let stack: Stack;
    let jobs: PinnedJobs;

    before(async () => {
      stack = await startStack({ workers: 0 });
      jobs = pinnedJobs(stack.config, stack.sim.url);
    });
    after(async () => {
      await jobs?.close();
      await stack?.close();
    });

    it('is a topic of GET /api/market/stream: each refresh job of the table announces an event of each kind it rebuilds', async () => {
      const client = await SseClient.connect(`${stack.apiUrl}/api/market/stream`, {});
      try {
        expect(client.status).to.equal(200);
        await eventually(() => client.retry, 5000, 'the retry hint');
        let at = Date.now() - 3_600_000;
        for (const job of REFRESH_JOBS) await jobs.runJob(job, (at += 60_000));
        for (const kind of SNAPSHOTS) expect(await client.waitFor(1, kind), kind).to.have.length(1);
      } finally {
        client.close();
      }
    });
  });
});
