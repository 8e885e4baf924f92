/**
 * A failed read becomes a tool error (`isError: true`), never a protocol failure: the agent sees
 * what a REST client would, `{ "error": <the route's message> }` plus the status and, when the
 * route would send `Retry-After`, the seconds to wait. An unknown error is logged and answered
 * as the route's bare 500 is: no internals reach the agent.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeCause, UnavailableError } from '../../../../shared/errors.js';
import type { Logger } from '../../../../shared/logger.js';
import { toAppError } from '../http/error-handler.js';

export interface ToolErrorBody {
  error: string;
  status: number;
  retryAfterSeconds?: number;
}

export function toolError(thrown: unknown, logger: Logger, tool: string): CallToolResult {
  const error = toAppError(thrown);
  let body: ToolErrorBody;
  if (!error) {
    logger.error({ err: thrown, tool }, 'unhandled error in an MCP tool');
    body = { error: 'Internal server error', status: 500 };
  } else {
    if (error instanceof UnavailableError) logger.warn({ err: describeCause(error), tool }, error.message);
    const retryAfter = error.headers['Retry-After'];
    body = { error: error.message, status: error.status, ...(retryAfter ? { retryAfterSeconds: Number(retryAfter) } : {}) };
  }
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}
