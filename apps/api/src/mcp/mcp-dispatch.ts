/**
 * Direct dispatch of the calls agents repeat, `tools/call` and `tools/list`: the bytes the SDK's
 * server would answer (a test compares the two on every tool), without building a server and
 * a transport per request and without validating the whole answer with zod on every call (the
 * SDK's path cost about 19 REST reads per call). The answer is the REST body, as `text` and as
 * `structuredContent`, around which the message is put together from bytes prepared once per
 * representation: a snapshot serves every caller until its next refresh. What the body holds
 * was validated when it was built (the worker checks every upstream payload against the same
 * schemas), so the per-call output validation the SDK does is left out on purpose.
 *
 * Anything else (initialize, ping, notifications, a message with fields these two do not use,
 * a malformed one) is left to the SDK: `asDirectRequest` says which is which.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { getParseErrorMessage } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { ApiDeps } from '../deps.js';
import { resultEnd, type RequestId } from './json-rpc.js';
import { MARKET_TOOL_LIST } from './mcp-server.js';
import { toolError } from './tool-errors.js';
import { MARKET_TOOLS, type MarketTool, type ToolCaller } from './tools.js';

export type DirectRequest =
  { id: RequestId; method: 'tools/list' } | { id: RequestId; method: 'tools/call'; name: string; args: Readonly<Record<string, unknown>> };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

const onlyKeys = (value: Record<string, unknown>, allowed: readonly string[]) => Object.keys(value).every((key) => allowed.includes(key));

/**
 * `message` as a request answered here, or undefined: only a well-formed JSON-RPC request for
 * `tools/call` (name and arguments, nothing else: no `_meta`, no task) or a plain `tools/list`.
 */
export function asDirectRequest(message: unknown): DirectRequest | undefined {
  if (!isPlainObject(message) || message.jsonrpc !== '2.0' || !onlyKeys(message, ['jsonrpc', 'id', 'method', 'params'])) return undefined;
  const { id, method, params } = message;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  const requestId = id as RequestId;
  if (method === 'tools/list') {
    return params === undefined || (isPlainObject(params) && Object.keys(params).length === 0) ? { id: requestId, method } : undefined;
  }
  if (method !== 'tools/call' || !isPlainObject(params) || !onlyKeys(params, ['name', 'arguments'])) return undefined;
  const { name, arguments: args = {} } = params;
  if (typeof name !== 'string' || !isPlainObject(args)) return undefined;
  return { id: requestId, method, name, args };
}

/** `{"result":{"content":[{"type":"text","text":<body as a string>}],"structuredContent":<body>}`, made once per representation. */
function resultStart(bytes: Buffer): Buffer {
  const body = bytes.toString('utf8');
  return Buffer.from(`{"result":{"content":[{"type":"text","text":${JSON.stringify(body)}}],"structuredContent":${body}}`);
}

/** A result the SDK would have built from an object: serialised as it serialises one. */
const resultOf = (result: object, id: RequestId) => Buffer.from(JSON.stringify({ result, jsonrpc: '2.0', id }));

/** The SDK's text for an error it turns into a tool result (McpError prefixes its code). */
const invalidParams = (message: string) => ({
  content: [{ type: 'text', text: new McpError(ErrorCode.InvalidParams, message).message }],
  isError: true,
});

export type DirectDispatch = (request: DirectRequest, caller: ToolCaller) => Promise<Buffer>;

export function createDirectDispatch(deps: ApiDeps, tools: readonly MarketTool[] = MARKET_TOOLS): DirectDispatch {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listStart = Buffer.from(`{"result":${JSON.stringify(MARKET_TOOL_LIST)}`);
  return async (request, caller) => {
    if (request.method === 'tools/list') return Buffer.concat([listStart, resultEnd(request.id)]);
    const tool = byName.get(request.name);
    if (!tool) return resultOf(invalidParams(`Tool ${request.name} not found`), request.id);
    const input = tool.input.safeParse(request.args);
    if (!input.success) {
      return resultOf(
        invalidParams(`Input validation error: Invalid arguments for tool ${tool.name}: ${getParseErrorMessage(input.error)}`),
        request.id,
      );
    }
    try {
      const representation = await tool.answer(deps, input.data, caller);
      return Buffer.concat([representation.formOf(resultStart), resultEnd(request.id)]);
    } catch (error) {
      return resultOf(toolError(error, deps.logger, tool.name), request.id);
    }
  };
}
