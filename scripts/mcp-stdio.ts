/**
 * `npm run --silent mcp -- --url <base>` (in production: `node dist/scripts/mcp-stdio.js --url <base>`):
 * the API's MCP tools over stdio (README, AI agents), forwarding `tools/list` and `tools/call` to
 * `<base>/mcp` of a running API; stdout carries the protocol, everything else goes to stderr.
 * MARKET_SIGNALS_API_KEY, if set, is sent as `X-Api-Key`: a secret, so over plain `http://` only to
 * a loopback address, and no request follows a redirect (a 3xx is an error).
 */
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const USAGE = 'usage: mcp-stdio --url <base URL of a running API, e.g. http://localhost:3000>';

function fail(message: string): never {
  process.stderr.write(`mcp-stdio: ${message}\n`);
  process.exit(1);
}

function endpoint(): URL {
  let values: { url?: string };
  try {
    ({ values } = parseArgs({ options: { url: { type: 'string' } }, strict: true }));
  } catch (error) {
    fail(`${(error as Error).message}; ${USAGE}`);
  }
  if (!values.url) fail(USAGE);
  const base = URL.parse(values.url) ?? fail(`--url is not a URL: ${values.url}`);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') fail(`--url must be http or https: ${values.url}`);
  return new URL('mcp', base.href.endsWith('/') ? base : `${base.href}/`);
}

/** localhost, 127.0.0.0/8 and ::1: a plain-http API on this machine, where the key crosses no network. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** fetch that treats every redirect as an error: the SDK would otherwise follow one within the origin, key and all. */
const fetchWithoutRedirects: typeof fetch = (input, init) => fetch(input, { ...init, redirect: 'error' });

async function main(): Promise<void> {
  const url = endpoint();
  const apiKey = process.env.MARKET_SIGNALS_API_KEY;
  if (apiKey && url.protocol === 'http:' && !isLoopback(url.hostname))
    fail(`refusing to send MARKET_SIGNALS_API_KEY over plain http to ${url.host}: use an https:// URL (plain http only to localhost)`);
  const remote = new Client({ name: 'market-signals-stdio', version: '0.1.0' });
  try {
    const headers = apiKey ? { 'X-Api-Key': apiKey } : {};
    await remote.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers, redirect: 'error' }, fetch: fetchWithoutRedirects }),
    );
  } catch (error) {
    fail(`cannot reach ${url.href}: ${(error as Error).message}`);
  }

  const server = new Server(
    { name: 'market-signals', version: remote.getServerVersion()?.version ?? '0.1.0' },
    { capabilities: { tools: {} }, instructions: remote.getInstructions() },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => remote.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    try {
      return (await remote.callTool(request.params)) as CallToolResult;
    } catch (error) {
      // The API did not answer: a tool error the agent can read, not a broken session.
      const body = { error: `API unreachable: ${(error as Error).message}`, status: 503, retryAfterSeconds: 5 };
      return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
    }
  });
  const stdio = new StdioServerTransport();
  stdio.onclose = () => void remote.close().finally(() => process.exit(0));
  await server.connect(stdio);
  process.stderr.write(`mcp-stdio: serving the tools of ${url.href} on stdio\n`);
}

main().catch((error: unknown) => fail((error as Error).message));
