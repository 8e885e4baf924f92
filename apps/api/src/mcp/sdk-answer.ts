/**
 * What is not a tool method is answered by the SDK: a fresh server and stateless transport, the
 * web-standard one, so the answer comes back as a value (raced against the deadline), not written.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { McpAnswer } from './json-rpc.js';
import { createMcpServer } from './mcp-server.js';

export interface SdkAnswer extends McpAnswer {
  contentType: string | undefined;
}

/** The request's headers as a fetch Request carries them (repeated ones joined, as fetch joins them). */
function webHeaders(headers: IncomingHttpHeaders): Headers {
  const web = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    try {
      web.set(name, Array.isArray(value) ? value.join(', ') : value);
    } catch {
      // A value fetch would refuse (Node's parser is laxer): the transport never reads it.
    }
  }
  return web;
}

/** The SDK's answer to one POST (`parsedBody` undefined when the headers were refused before the body was read). */
export async function sdkAnswer(headers: IncomingHttpHeaders, parsedBody: unknown, signal: AbortSignal): Promise<SdkAnswer> {
  const server = createMcpServer();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const close = () => {
    void transport.close();
    void server.close();
  };
  signal.addEventListener('abort', close, { once: true });
  try {
    await server.connect(transport);
    // The URL is not the client's (its Host is not to be trusted): the tools never read it.
    const request = new Request('http://localhost/mcp', { method: 'POST', headers: webHeaders(headers) });
    const response = await transport.handleRequest(request, parsedBody === undefined ? {} : { parsedBody });
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? undefined,
      body: Buffer.from(await response.arrayBuffer()),
    };
  } finally {
    signal.removeEventListener('abort', close);
    close();
  }
}
