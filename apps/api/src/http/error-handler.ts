/**
 * The one owner of the JSON error contract: every error, and every 404/405 the router leaves
 * without a body, leaves here as `{ "error": message }`. Unknown errors are logged with their
 * stack and answered with a bare 500.
 */
import type { Context, Middleware } from 'koa';
import { AppError, BadRequestError, describeCause, NotFoundError, NotReadyError, UnavailableError } from '../../../../shared/errors.js';
import type { Logger } from '../../../../shared/logger.js';
import { isRedisUnavailable } from '../../../../shared/redis-errors.js';

class MethodNotAllowedError extends AppError {
  override readonly name = 'MethodNotAllowedError';
  readonly status = 405;
}

export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) throw new NotFoundError('Not found');
      if (ctx.status === 405 && ctx.body == null) {
        throw new MethodNotAllowedError('Method not allowed', { headers: { Allow: ctx.response.get('Allow') } });
      }
    } catch (thrown) {
      const error = toAppError(thrown);
      if (!error) {
        logger.error({ reqId: ctx.state.requestId, err: thrown }, 'unhandled error');
      } else if (error instanceof UnavailableError && !(error instanceof NotReadyError)) {
        logger.warn({ reqId: ctx.state.requestId, err: describeCause(error) }, error.message);
      }
      render(ctx, error ?? { status: 500, message: 'Internal server error', headers: {} });
    }
  };
}

function render(ctx: Context, error: Pick<AppError, 'status' | 'message' | 'headers'>): void {
  // Headers a success path may have set must not describe the error body.
  for (const header of ['ETag', 'Cache-Control', 'Content-Encoding', 'Vary']) ctx.remove(header);
  ctx.set(error.headers);
  ctx.status = error.status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: error.message };
}

/**
 * Our errors pass; Redis outages, client errors raised by Koa and its parsers are translated; the rest is unknown.
 * Also used by the MCP tools, so a tool error carries the message the route would answer.
 */
export function toAppError(thrown: unknown): AppError | null {
  if (thrown instanceof AppError) return thrown;
  if (isRedisUnavailable(thrown)) return new UnavailableError('Service unavailable', 1, { cause: thrown });
  if (thrown instanceof URIError) return new BadRequestError('Invalid URL encoding', 400, { cause: thrown });
  const status = (thrown as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return new BadRequestError('Payload too large', 413, { cause: thrown });
    if (status === 415) return new BadRequestError('Unsupported media type', 415, { cause: thrown });
    return new BadRequestError('Bad request', 400, { cause: thrown });
  }
  return null;
}
