/**
 * `tools/call` and `tools/list` are answered here only (the SDK's server, sdk-answer.ts, has no
 * tools): without a server and transport per request, and without zod validating every answer,
 * an MCP call stays near a REST read's cost (the SDK's path cost ~19; the bench's MCP row). The
 * answer is the REST body, as `text` and `structuredContent`, from bytes prepared once per
 * representation; the body was validated when built (the worker checks every upstream payload).
 * Messages are checked with the SDK's schemas and failures answered as its server would.
 */
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ApiDeps } from '../deps.js';
import { requestError, resultEnd, type RequestId } from './json-rpc.js';
import { MARKET_TOOL_LIST, MCP_TOOLS } from './mcp-server.js';
import { toolError } from './tool-errors.js';
import type { McpTool, ToolCaller } from './tools.js';

/** A JSON-RPC request for one of the tool methods. */
export interface ToolRequest {
  id: RequestId;
  method: 'tools/list' | 'tools/call';
  message: Record<string, unknown>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** `message` as a tool request, or undefined (a member beyond jsonrpc, id, method and params is the transport's to refuse). */
export function asToolRequest(message: unknown): ToolRequest | undefined {
  if (!isPlainObject(message) || message.jsonrpc !== '2.0') return undefined;
  if (!Object.keys(message).every((key) => ['jsonrpc', 'id', 'method', 'params'].includes(key))) return undefined;
  const { id, method } = message;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (method !== 'tools/list' && method !== 'tools/call') return undefined;
  return { id: id as RequestId, method, message };
}

/** `{"result":{"content":[{"type":"text","text":<body as a string>}],"structuredContent":<body>}`, made once per representation. */
function resultStart(bytes: Buffer): Buffer {
  const body = bytes.toString('utf8');
  return Buffer.from(`{"result":{"content":[{"type":"text","text":${JSON.stringify(body)}}],"structuredContent":${body}}`);
}

/** A result as the SDK's server serialises one. */
const resultOf = (result: object, id: RequestId) => Buffer.from(JSON.stringify({ result, jsonrpc: '2.0', id }));

/** The SDK's text for an error it turns into a tool result (McpError prefixes its code). */
const invalidParams = (message: string) => ({
  content: [{ type: 'text', text: new McpError(ErrorCode.InvalidParams, message).message }],
  isError: true,
});

/** A zod error as the SDK words it in a tool error: each issue, with where it is. */
const issuesText = (error: z.core.$ZodError) =>
  error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.message} at ${issue.path.map(String).join('.')}` : issue.message))
    .join('\n');

export type ToolDispatch = (request: ToolRequest, caller: ToolCaller) => Promise<Buffer>;

export function createToolDispatch(deps: ApiDeps, tools: readonly McpTool[] = MCP_TOOLS): ToolDispatch {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listStart = Buffer.from(`{"result":${JSON.stringify(MARKET_TOOL_LIST)}`);
  return async ({ id, method, message }, caller) => {
    // A request its method's schema refuses: answered as the SDK's server answers its parse error.
    const refused = (error: z.core.$ZodError) => requestError(id, ErrorCode.InternalError, error.message).body;
    if (method === 'tools/list') {
      const list = ListToolsRequestSchema.safeParse(message);
      return list.success ? Buffer.concat([listStart, resultEnd(id)]) : refused(list.error);
    }
    const call = CallToolRequestSchema.safeParse(message);
    if (!call.success) return refused(call.error);
    const { params } = call.data;
    if (params.task)
      return requestError(id, ErrorCode.InternalError, 'Server does not support task creation (required for tools/call)').body;
    const tool = byName.get(params.name);
    if (!tool) return resultOf(invalidParams(`Tool ${params.name} not found`), id);
    // A tool with its route's parser checks its arguments itself, in the try: a bad one is the route's 400.
    const input = tool.parse ? undefined : tool.input.safeParse(params.arguments ?? {});
    if (input && !input.success) {
      return resultOf(invalidParams(`Input validation error: Invalid arguments for tool ${tool.name}: ${issuesText(input.error)}`), id);
    }
    try {
      const representation = await tool.answer(deps, input ? input.data : tool.parse!(params.arguments ?? {}), caller);
      return Buffer.concat([representation.formOf(resultStart), resultEnd(id)]);
    } catch (error) {
      return resultOf(toolError(error, deps.logger, tool.name), id);
    }
  };
}
