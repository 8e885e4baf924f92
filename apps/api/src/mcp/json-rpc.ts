/**
 * The JSON-RPC bytes /mcp answers itself, spelled as the SDK's transport and server spell theirs
 * (same key order), so a client sees one server whichever of the two answered.
 */

/** A JSON-RPC request id: what the SDK accepts (a string or a whole number). */
export type RequestId = string | number;

/** JSON-RPC 2.0 and MCP error codes used here. */
export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  /** The Streamable HTTP transport's "the HTTP request is refused". */
  transportError: -32000,
  /** MCP's RequestTimeout, what an SDK client raises when its own wait runs out. */
  requestTimeout: -32001,
} as const;

/** An answer to write: status and JSON bytes. */
export interface McpAnswer {
  status: number;
  body: Buffer;
}

/** What the transport answers when the HTTP request itself is refused: `{jsonrpc, error, id: null}`. */
export function transportError(status: number, code: number, message: string): McpAnswer {
  return { status, body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })) };
}

/** What the server answers to a request it fails: `{jsonrpc, id, error}`. */
export function requestError(id: RequestId | null, code: number, message: string): McpAnswer {
  return { status: 200, body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })) };
}

/** The ending of a result message after its `"result":...`: `,"jsonrpc":"2.0","id":<id>}`. */
export function resultEnd(id: RequestId): Buffer {
  return Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
}
