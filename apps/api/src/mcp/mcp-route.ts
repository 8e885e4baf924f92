/**
 * POST /mcp: MCP's Streamable HTTP transport, stateless (one JSON body per request, so any replica
 * answers and a deploy drains it like any request; GET and DELETE are the router's 405). In order:
 * Origin (403), body (64 KiB, 413), JSON (400), no batch (400, docs/decisions.md#d12); the tool
 * methods go to mcp-dispatch.ts, the rest to the SDK (sdk-answer.ts); all within MCP_TIMEOUT.
 */
import type { IncomingHttpHeaders } from 'node:http';
import Router from '@koa/router';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'koa';
import { apiKeyOf } from '../auth/api-key-auth.js';
import { authenticate } from '../auth/bearer.js';
import type { ApiDeps } from '../deps.js';
import { JSON_RPC, requestError, transportError, type McpAnswer, type RequestId } from './json-rpc.js';
import { asToolRequest, createToolDispatch } from './mcp-dispatch.js';
import { sdkAnswer } from './sdk-answer.js';
import type { ToolCaller } from './tools.js';

/** A JSON-RPC message for these tools is a few hundred bytes. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

export const BATCH_REFUSED =
  'Invalid Request: batches are not supported (MCP removed JSON-RPC batching in 2025-06-18); send one message per request';

type Answer = McpAnswer & { contentType?: string | undefined; close?: boolean };

/** Whether the transport would take these headers; when not, the SDK answers (406, 415 or 400). */
function transportAccepts(headers: IncomingHttpHeaders): boolean {
  const accept = headers.accept ?? '';
  const type = headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
  const version = headers['mcp-protocol-version'];
  return (
    accept.includes('application/json') &&
    accept.includes('text/event-stream') &&
    type === 'application/json' &&
    (version === undefined || (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version)))
  );
}

/**
 * The body, or undefined when over the limit or never whole (the client left). Read by events: an
 * async iterator cost a tool call several microtask turns (the bench's MCP row).
 */
function readBody(ctx: Context): Promise<string | undefined> {
  if (Number(ctx.get('Content-Length')) > MCP_MAX_BODY_BYTES) return Promise.resolve(undefined);
  const req = ctx.req;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = (body: string | undefined) => {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > MCP_MAX_BODY_BYTES) done(undefined);
      else chunks.push(chunk);
    };
    const onEnd = () => done(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    const onGone = () => done(undefined);
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
  });
}

const TOO_LARGE = transportError(
  413,
  JSON_RPC.transportError,
  `Payload Too Large: Request body must not exceed ${MCP_MAX_BODY_BYTES} bytes`,
);
const NOT_JSON = transportError(400, JSON_RPC.parseError, 'Parse error: Invalid JSON');
const BATCH = transportError(400, JSON_RPC.invalidRequest, BATCH_REFUSED);
const ORIGIN_REFUSED = transportError(403, JSON_RPC.transportError, 'Forbidden: Origin not allowed');

export function mcpRoutes(deps: ApiDeps, router = new Router()): Router {
  const tools = createToolDispatch(deps);
  const allowedOrigins = new Set(deps.config.mcpAllowedOrigins);

  /** The answer to one POST; `id` is filled in as soon as it is known, for the deadline's answer. */
  const answer = async (ctx: Context, caller: ToolCaller, signal: AbortSignal, seen: { id: RequestId | null }): Promise<Answer> => {
    const headers = ctx.req.headers;
    if (!transportAccepts(headers)) return sdkAnswer(headers, undefined, signal);
    const body = await readBody(ctx);
    // The rest of an oversized body is not read: the connection goes with the answer.
    if (body === undefined) return { ...TOO_LARGE, close: true };
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return NOT_JSON;
    }
    if (Array.isArray(message)) return BATCH;
    const request = asToolRequest(message);
    if (!request) return sdkAnswer(headers, message, signal);
    seen.id = request.id;
    // Tool calls and the tool list are reads: logged at debug as GET reads are, not at info as writes.
    ctx.state.read = true;
    return { status: 200, body: await tools(request, caller) };
  };

  router.post('/mcp', async (ctx) => {
    // DNS rebinding: a page on another site must not reach a server on the user's machine or
    // network through the user's browser. Agents send no Origin; a browser always does.
    const origin = ctx.req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) return send(ctx, ORIGIN_REFUSED);
    // The same client, the same budget and user as the REST routes.
    const caller: ToolCaller = {
      chargeMiss: () => deps.missBudget.charge(ctx.ip, apiKeyOf(ctx)?.key.id),
      userId: async () => (await authenticate(ctx, deps.auth)).user.id,
    };
    const seen: { id: RequestId | null } = { id: null };
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<Answer>((resolve) => {
      timer = setTimeout(() => {
        deadline.abort();
        // The body may still be arriving: the connection goes with this answer.
        resolve({ ...requestError(seen.id, JSON_RPC.requestTimeout, 'Request timed out'), close: true });
      }, deps.config.mcpTimeoutMs);
    });
    try {
      send(ctx, await Promise.race([answer(ctx, caller, deadline.signal, seen), timedOut]));
    } finally {
      clearTimeout(timer);
    }
  });
  return router;
}

function send(ctx: Context, answer: Answer): void {
  // Written here rather than by Koa: a 202 has no body, which Koa would turn into a 204.
  ctx.status = answer.status;
  ctx.respond = false;
  const headers: Record<string, string> = { 'Content-Length': String(answer.body.length) };
  if (answer.body.length > 0) headers['Content-Type'] = answer.contentType ?? 'application/json';
  if (answer.close) headers.Connection = 'close';
  ctx.res.writeHead(answer.status, headers);
  ctx.res.end(answer.body);
}
