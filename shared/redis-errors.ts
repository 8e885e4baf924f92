/**
 * What a Redis failure is, told by its type: a reply from the server by its error code (the first
 * word Redis sends, `LOADING`, `READONLY`...), ioredis's own failures by their class, Node's
 * socket failures by their `code`. Only the few failures ioredis raises as a plain `Error` are
 * told by their fixed text, since ioredis gives them nothing else.
 */
import { ReplyError as IoredisReplyError } from 'ioredis';

/** ioredis re-exports redis-errors' ReplyError untyped. */
const ReplyError = IoredisReplyError as new (message: string) => Error;

/** The error code of a reply error (`WRONGTYPE`, `READONLY`, `BUSYKEY`...); undefined for anything that is not a reply. */
export function replyCode(error: unknown): string | undefined {
  return error instanceof ReplyError ? error.message.split(' ', 1)[0] : undefined;
}

/** Replies of a Redis that is there but cannot serve now: loading its data, demoted, out of memory, no replica to acknowledge. */
const UNAVAILABLE_REPLIES = new Set(['LOADING', 'READONLY', 'MASTERDOWN', 'NOREPLICAS', 'OOM', 'TRYAGAIN', 'BUSY', 'CLUSTERDOWN']);

/** ioredis's typed failures (redis-errors' AbortError and its kin): the connection was lost or never made. */
const CLIENT_FAILURES = new Set(['AbortError', 'InterruptError', 'MaxRetriesPerRequestError', 'ClusterAllFailedError']);

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE']);

/** What ioredis rejects a command with, as a plain Error, when it has no connection to send it on. */
const UNTYPED_CLIENT_FAILURES = new Set([
  'Connection is closed.',
  "Stream isn't writeable and enableOfflineQueue options is false",
  "Cluster isn't ready and enableOfflineQueue options is false",
  'None of startup nodes is available',
  'Command timed out',
]);

/** True for the ways ioredis and BullMQ fail while Redis is unreachable or cannot serve yet. */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // A command of a pipeline or MULTI that failed (shared/redis-results.ts): what failed it decides.
  if (error.name === 'RedisCommandError' && error.cause instanceof Error) return isRedisUnavailable(error.cause);
  const code = replyCode(error);
  if (code !== undefined) return UNAVAILABLE_REPLIES.has(code);
  const socketCode = (error as NodeJS.ErrnoException).code;
  return (
    CLIENT_FAILURES.has(error.name) ||
    (socketCode !== undefined && SOCKET_CODES.has(socketCode)) ||
    UNTYPED_CLIENT_FAILURES.has(error.message) ||
    // ioredis appends the last redirection's error to this one.
    error.message.startsWith('Too many Cluster redirections.') ||
    // A failure wrapped with its cause (execChecked's RedisCommandError).
    isRedisUnavailable(error.cause)
  );
}
