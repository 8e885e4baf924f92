/** What went wrong upstream; `retryable` decides between BullMQ's backoff and an UnrecoverableError (worker.ts). */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  /** HTTP status, when the upstream answered at all. */
  readonly status: number | undefined;
  /** The upstream's Retry-After, in ms, when it sent one. */
  readonly retryAfterMs: number | undefined;
  readonly retryable: boolean;

  constructor(message: string, options: { status?: number; retryAfterMs?: number; retryable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.retryable = options.retryable ?? true;
  }
}

/** `Retry-After` as seconds or an HTTP date, in ms; undefined when absent or unparsable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
