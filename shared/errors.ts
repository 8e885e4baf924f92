/**
 * The few error classes the service speaks. Each carries its HTTP status and the public
 * message clients see; one middleware renders them as `{ "error": message }`. Anything else
 * thrown is a 500 whose details stay in the log.
 */
import { inspect } from 'node:util';

/** For a log line: the cause of an error (an Error or string as is, anything else inspected), else its message. */
export function describeCause(error: Error): string {
  const cause: unknown = error.cause ?? error.message;
  return cause instanceof Error || typeof cause === 'string' ? String(cause) : inspect(cause);
}

export abstract class AppError extends Error {
  abstract readonly status: number;
  /** Extra response headers (Allow, Retry-After, WWW-Authenticate). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(message: string, options?: { cause?: unknown; headers?: Record<string, string> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.headers = options?.headers ?? {};
  }
}

/** 400, 413 or 415: the request itself is wrong. */
export class BadRequestError extends AppError {
  override readonly name = 'BadRequestError';
  readonly status: number;
  constructor(message: string, status: 400 | 413 | 415 = 400, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
  }
}

/** 401 (who are you?) or 403 (not allowed). */
export class AuthError extends AppError {
  override readonly name = 'AuthError';
  readonly status: number;
  constructor(message: string, status: 401 | 403 = 401) {
    super(message, status === 401 ? { headers: { 'WWW-Authenticate': 'Bearer' } } : undefined);
    this.status = status;
  }
}

/** 404: the resource does not exist. */
export class NotFoundError extends AppError {
  override readonly name = 'NotFoundError';
  readonly status = 404;
}

/** 412: the request's `If-Match` names a version that is no longer the current one. */
export class PreconditionFailedError extends AppError {
  override readonly name = 'PreconditionFailedError';
  readonly status = 412;
}

/** 409: the resource's state forbids the request (an alert test for a disabled rule). */
export class ConflictError extends AppError {
  override readonly name = 'ConflictError';
  readonly status = 409;
}

const retryAfter = (seconds: number) => ({ 'Retry-After': String(Math.max(1, Math.ceil(seconds))) });

/** 429: slow down; the client may retry after `retryAfterSeconds`. */
export class RateLimitedError extends AppError {
  override readonly name = 'RateLimitedError';
  readonly status = 429;
  /** `headers`: more to send with it, such as the IETF draft's `RateLimit` and `RateLimit-Policy`. */
  constructor(message: string, retryAfterSeconds: number, headers: Record<string, string> = {}) {
    super(message, { headers: { ...headers, ...retryAfter(retryAfterSeconds) } });
  }
}

/** 503: a dependency (Redis, the upstream index, the worker) cannot answer now. */
export class UnavailableError extends AppError {
  override readonly name = 'UnavailableError';
  readonly status = 503;
  constructor(message: string, retryAfterSeconds: number, options?: { cause?: unknown }) {
    super(message, { cause: options?.cause, headers: retryAfter(retryAfterSeconds) });
  }
}

/**
 * A command inside a MULTI, a pipeline or a script failed. ioredis reports such a failure in
 * the reply array instead of rejecting, so a caller that does not look takes it for success.
 * Not an AppError: the client sees a 500 (or a 503 when `isRedisUnavailable` recognises the
 * message, which starts with Redis's own); the log keeps which command failed and why.
 */
export class RedisCommandError extends Error {
  override readonly name = 'RedisCommandError';
  /** 0-based position of the failed command in the batch (MULTI itself not counted); -1 for the whole batch. */
  readonly commandIndex: number;
  /** The failed command's name (`srem`), when ioredis tells it (in a pipeline; not inside a MULTI). */
  readonly command: string | undefined;
  /** What Redis answered, e.g. `WRONGTYPE Operation against a key holding the wrong kind of value`. */
  readonly redisMessage: string;

  constructor(commandIndex: number, command: string | undefined, redisMessage: string, options?: { cause?: unknown }) {
    const where = commandIndex < 0 ? '' : ` (command ${commandIndex}${command ? `, ${command.toUpperCase()}` : ''}, of the batch)`;
    super(`${redisMessage}${where}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.commandIndex = commandIndex;
    this.command = command;
    this.redisMessage = redisMessage;
  }
}

/** 503 from /readyz while the first snapshots are on their way: a probe's expected answer at start-up, not logged as a warning. */
export class NotReadyError extends UnavailableError {}
