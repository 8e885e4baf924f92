/**
 * POST /mcp in the OpenAPI document (routes/docs/openapi.ts combines the groups'). The JSON-RPC envelope is described loosely: the tools themselves are described by the server's
 * own `tools/list`, which is the contract agents read.
 */
import { z } from 'zod';
import { declarePaths } from '../openapi/declare.js';
import { INTERNAL_ERROR, json, type Response } from '../openapi/responses.js';
import { ALERT_TOOLS } from './alert-tools.js';
import { MARKET_TOOLS } from './tools.js';

const id = z.union([z.string(), z.number(), z.null()]).meta({ description: 'The request id (null when the request could not be read).' });

const JsonRpcRequestSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number()]).optional().meta({ description: 'Absent for a notification (answered 202 with no body).' }),
    method: z
      .string()
      .meta({ description: '`initialize`, `tools/list`, `tools/call`, `ping`, or a notification.', examples: ['tools/call'] }),
    params: z.looseObject({}).optional(),
  })
  .meta({ id: 'JsonRpcRequest', description: 'A JSON-RPC 2.0 request or notification (MCP).' });

const JsonRpcErrorObject = z.looseObject({
  code: z
    .int()
    .meta({ description: 'JSON-RPC error code (-32700 parse error, -32600 invalid request, -32000 transport, -32001 request timed out).' }),
  message: z.string(),
});

const JsonRpcResponseSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id,
    result: z
      .looseObject({})
      .optional()
      .meta({ description: 'The answer: a tool call’s `content`, `structuredContent` and `isError`, the tool list, ...' }),
    error: JsonRpcErrorObject.optional(),
  })
  .meta({ id: 'JsonRpcResponse', description: 'A JSON-RPC 2.0 response (MCP).' });

const JsonRpcErrorSchema = z
  .looseObject({ jsonrpc: z.literal('2.0'), id, error: JsonRpcErrorObject })
  .meta({ id: 'JsonRpcError', description: 'What the MCP transport answers when the HTTP request itself is refused.' });

const transportError = (description: string): Response => ({ description, content: json(JsonRpcErrorSchema) });

const names = (tools: readonly { name: string }[]) => tools.map((tool) => `\`${tool.name}\``).join(', ');

const TOOL_CALL_EXAMPLE = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'token_sentiment', arguments: { token: 'SOL' } } };

export const MCP_PATHS = declarePaths({
  '/mcp': {
    post: {
      operationId: 'mcp',
      summary: 'MCP server: the market reads as tools for AI agents',
      description:
        'A remote [Model Context Protocol](https://modelcontextprotocol.io) server over Streamable HTTP, stateless: no session, ' +
        'every request stands alone and is answered with one JSON body (never an event stream), so any replica answers. ' +
        'Send `Accept: application/json, text/event-stream` (406 otherwise) and `Content-Type: application/json` (415 otherwise); ' +
        'a body is at most 64 KiB (413) and holds one JSON-RPC message: a batch (an array) is refused with 400, as MCP 2025-06-18 removed batching. ' +
        'A request with an `Origin` header is served only when that origin is in MCP_ALLOWED_ORIGINS (403 otherwise, `null` included); agents send none. ' +
        'Every request is answered within MCP_TIMEOUT (15 s by default), if need be with the JSON-RPC error -32001 "Request timed out". GET and DELETE answer 405. ' +
        `Market tools, read-only and public like the market routes: ${names(MARKET_TOOLS)}. ` +
        `Alert tools, for the user of the request's API key (X-Api-Key) or JWT, each acting as its /api/alerts route: ${names(ALERT_TOOLS)}. ` +
        'Each answers what its market route answers (same data, same `cachedAt`) as `structuredContent` and as JSON text; ' +
        'a failure is a tool result with `isError: true` and the route’s message, e.g. `{"error":"Username not found in index","status":404}`. ' +
        'Stats lookups draw on the same per-client budget as GET /api/market/stats/{username}.',
      tags: ['agents'],
      requestParams: {
        header: z.object({
          'mcp-protocol-version': z
            .string()
            .optional()
            .meta({ description: 'The negotiated protocol version (e.g. 2025-11-25); an unsupported one is 400.' }),
        }),
      },
      requestBody: {
        required: true,
        description: 'One JSON-RPC message.',
        content: { 'application/json': { schema: JsonRpcRequestSchema, examples: { toolCall: { value: TOOL_CALL_EXAMPLE } } } },
      },
      responses: {
        '200': {
          description: 'The JSON-RPC response: a result, or an error such as -32001 "Request timed out".',
          content: json(JsonRpcResponseSchema),
        },
        '202': { description: 'Accepted: the body held only notifications or responses; no body.' },
        '400': transportError(
          'The body is not JSON or not JSON-RPC, it is a batch (a JSON array), or MCP-Protocol-Version is unsupported.',
        ),
        '403': transportError('The request has an Origin header (`null` included) that is not in MCP_ALLOWED_ORIGINS.'),
        '406': transportError('Accept does not list both application/json and text/event-stream.'),
        '413': transportError('The body is over 64 KiB.'),
        '415': transportError('Content-Type is not application/json.'),
        '500': INTERNAL_ERROR,
      },
    },
  },
});
