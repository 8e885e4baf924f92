/**
 * POST /mcp: the market tools over MCP's Streamable HTTP transport, stateless. Each request
 * gets a fresh server and transport (no session, nothing kept between requests), and the answer
 * is one JSON body, never an event stream: any replica answers any call, and a deploy drains
 * /mcp like any other request. GET and DELETE (a session's event stream and its end) do not
 * exist without sessions: the router answers them 405 with `Allow: POST`, as for any route.
 */
import Router from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { apiKeyOf } from '../auth/api-key-auth.js';
import type { ApiDeps } from '../deps.js';
import { createMcpServer } from './mcp-server.js';
import type { ToolCaller } from './tools.js';

/** A JSON-RPC message for these tools is a few hundred bytes; a batch of them a few KB. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

export function mcpRoutes(deps: ApiDeps, router = new Router()): Router {
  router.post('/mcp', async (ctx) => {
    // The same client, the same budget: a stats miss through MCP is charged as GET /api/market/stats charges it
    // (to the API key when one came with the request, else to the address).
    const caller: ToolCaller = { chargeMiss: () => deps.missBudget.charge(ctx.ip, apiKeyOf(ctx)?.key.id) };
    const server = createMcpServer(deps, caller);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MCP_MAX_BODY_BYTES,
    });
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The transport writes the response itself (status, JSON body, its JSON-RPC errors).
    ctx.respond = false;
    try {
      await transport.handleRequest(ctx.req, ctx.res);
    } catch (error) {
      // Nothing written yet: let the error handler answer as for any route.
      if (ctx.res.headersSent) throw error;
      ctx.respond = true;
      throw error;
    }
  });
  return router;
}
