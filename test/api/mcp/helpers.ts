/**
 * The SDK's own client over real HTTP, as an agent connects: every HTTP response it receives is
 * checked against /openapi.json, as every integration test's are.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertDocumented } from '../../support/openapi-response.js';

async function documentedFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  const body = Buffer.from(await response.arrayBuffer());
  assertDocumented({ method: init?.method ?? 'GET', url: String(url), status: response.status, headers: response.headers, body });
  return new Response(body.length > 0 ? body : null, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

export async function connectMcp(apiUrl: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'market-signals-tests', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${apiUrl}/mcp`), { fetch: documentedFetch, requestInit: { headers } }));
  return client;
}

/** Calls a tool; the result as the SDK types it. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a result's first content item (a tool error's JSON body, or the REST body). */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`expected text content, got ${JSON.stringify(result.content)}`);
  return first.text;
}

/** The tool error's body: `{ error, status, retryAfterSeconds? }`. */
export function toolErrorOf(result: CallToolResult): { error: string; status: number; retryAfterSeconds?: number } {
  if (result.isError !== true) throw new Error(`expected a tool error, got ${JSON.stringify(result).slice(0, 300)}`);
  return JSON.parse(textOf(result)) as { error: string; status: number; retryAfterSeconds?: number };
}
