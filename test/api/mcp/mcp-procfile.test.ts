/**
 * /mcp as deployed: the Procfile's `web` and `worker` lines built and run as real processes
 * against a redis-server of their own and the simulator, then the stdio entry
 * (`node dist/scripts/mcp-stdio.js --url ...`) an agent starts locally in front of them.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'chai';
import { startDeployment, type Deployment } from '../../faults/support/deployment.js';
import { ROOT } from '../../faults/support/procfile.js';
import { startTestRedis, type TestRedis } from '../../support/redis-server.js';
import { callTool, connectMcp, textOf, toolErrorOf } from './helpers.js';
import { MCP_TOOLS } from '../../../apps/api/src/mcp/mcp-server.js';

const STDIO_ENTRY = join(ROOT, 'dist/scripts/mcp-stdio.js');

describe('MCP against the Procfile’s processes, and its stdio entry', function () {
  // The first test of a run builds the project (npm run build).
  this.timeout(180_000);
  let redis: TestRedis;
  let deployment: Deployment;
  let http: Client;
  let stdio: Client;

  before(async () => {
    redis = await startTestRedis();
    deployment = await startDeployment({ redisEnv: { REDIS_URL: redis.url } });
    http = await connectMcp(deployment.apiUrl);
    stdio = new Client({ name: 'market-signals-tests', version: '0.0.0' });
    await stdio.connect(
      new StdioClientTransport({ command: process.execPath, args: [STDIO_ENTRY, '--url', deployment.apiUrl], cwd: ROOT, stderr: 'ignore' }),
    );
  });
  after(async () => {
    await stdio?.close();
    await http?.close();
    await deployment?.stop();
    await redis?.stop();
  });

  it('the web process, and the stdio entry in front of it, serve the table’s tools and the alert tools, with the REST bodies and errors', async () => {
    const tools = (await http.listTools()).tools;
    expect(tools.map((tool) => tool.name).sort()).to.deep.equal(MCP_TOOLS.map((tool) => tool.name).sort());
    expect((await stdio.listTools()).tools).to.deep.equal(tools);
    expect(stdio.getInstructions()).to.equal(http.getInstructions());
    expect(textOf(await callTool(http, 'trending_tokens'))).to.equal(
      await (await fetch(`${deployment.apiUrl}/api/market/trending`)).text(),
    );
    const rest = await fetch(`${deployment.apiUrl}/api/market/news?limit=3`);
    expect((await callTool(stdio, 'news', { limit: 3 })).structuredContent).to.deep.equal(await rest.json());
    expect(toolErrorOf(await callTool(stdio, 'username_stats', { username: 'no such name' }))).to.deep.equal({
      error: 'Invalid username',
      status: 400,
    });
  });

  it('the stdio entry without --url, or with a bad one, exits 1 with one line on stderr and nothing on stdout', () => {
    for (const args of [[], ['--url', 'ftp://example.com'], ['--url']]) {
      const run = spawnSync(process.execPath, [STDIO_ENTRY, ...args], { cwd: ROOT, encoding: 'utf8', input: '' });
      expect(run.status, args.join(' ')).to.equal(1);
      expect(run.stdout, args.join(' ')).to.equal('');
      expect(run.stderr.trim().split('\n'), args.join(' ')).to.have.length(1);
    }
  });
});
