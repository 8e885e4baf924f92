/**
 * The got client and the bounded read every upstream client uses (the index client and the
 * Elfa, CoinGecko and X adapters, through providers/provider-http.ts), so that one place owns
 * what an upstream may make us do:
 * - no retries of got's own (BullMQ owns retries) and a timeout on every request;
 * - no redirects followed: a key header is never sent to a host other than the configured one,
 *   and a 3xx answer is an upstream error;
 * - a body read at most `maxBodyBytes` (after decompression, so a small gzip bomb is cut too),
 *   then the connection dropped: an oversized or endless body is an upstream error, never memory
 *   the worker runs out of, and never a snapshot;
 * - every list in a parsed body cut to `maxListItems`, before any schema walks it.
 */
import got, { RequestError, type Got } from 'got';

/** Above any answer we ask for: an index posts page (500 posts) or an X page is a few hundred KB. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Above any page we ask for (index posts: 500 a page; CoinGecko 250; X and Elfa 100). */
export const MAX_LIST_ITEMS = 1_000;

export interface UpstreamClientOptions {
  baseUrl: string;
  /** Headers on every request (a key's); never logged. */
  headers?: Readonly<Record<string, string>>;
}

/** A got instance with the defaults above; statuses are the caller's (no HTTPError thrown). */
export function createUpstreamClient(options: UpstreamClientOptions): Got {
  return got.extend({
    prefixUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { accept: 'application/json', ...options.headers },
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: false,
  });
}

export interface BoundedRequest {
  searchParams?: Readonly<Record<string, string | number>> | undefined;
  timeoutMs: number;
  /** Default MAX_BODY_BYTES. */
  maxBodyBytes?: number;
}

export interface UpstreamAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text, at most `maxBodyBytes` bytes of it. */
  body: string;
}

/** The upstream sent more than we read: the request reached it (and may have been billed). */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(readonly limitBytes: number) {
    super(`body over ${limitBytes} bytes, not read`);
  }
}

/**
 * GET `path` and read its body up to the limit. Rejects with BodyTooLargeError past it (a
 * declared Content-Length past it is refused before reading), or with got's RequestError
 * (timeout, connection refused or reset).
 */
export function fetchBounded(client: Got, path: string, request: BoundedRequest): Promise<UpstreamAnswer> {
  const limit = request.maxBodyBytes ?? MAX_BODY_BYTES;
  return new Promise<UpstreamAnswer>((resolve, reject) => {
    const stream = client.stream(path.replace(/^\//, ''), {
      searchParams: request.searchParams ? { ...request.searchParams } : undefined,
      timeout: { request: request.timeoutMs },
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let answer: Pick<UpstreamAnswer, 'statusCode' | 'headers'> | undefined;
    let tooLarge: BodyTooLargeError | undefined;
    const refuse = () => {
      tooLarge = new BodyTooLargeError(limit);
      stream.destroy();
      reject(tooLarge);
    };
    stream.on('response', (response: { statusCode: number; headers: UpstreamAnswer['headers'] }) => {
      answer = { statusCode: response.statusCode, headers: response.headers };
      if (Number(response.headers['content-length']) > limit) refuse();
    });
    stream.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) refuse();
      else chunks.push(chunk);
    });
    stream.on('end', () => {
      if (!tooLarge && answer) resolve({ ...answer, body: Buffer.concat(chunks).toString('utf8') });
    });
    stream.on('error', (error: Error) => {
      if (!tooLarge) reject(error);
    });
  });
}

/** got's code for a request that failed without an answer (ETIMEDOUT, ECONNREFUSED...), else the error's name. */
export function requestErrorCode(error: unknown): string {
  if (error instanceof RequestError) return error.code ?? error.name;
  return error instanceof Error ? error.name : 'error';
}

/**
 * The body as JSON, with every array longer than `maxItems` cut to its first `maxItems` (the
 * lists we read are ranked or newest first). `cut` counts the arrays cut, for a log line.
 * Undefined when the text is not JSON.
 */
export function parseBoundedJson(text: string, maxItems = MAX_LIST_ITEMS): { json: unknown; cut: number } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  let cut = 0;
  // Iterative: a deeply nested body (which JSON.parse accepts) must not overflow the stack here.
  const pending: unknown[] = [json];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      if (value.length > maxItems) {
        value.length = maxItems;
        cut += 1;
      }
      for (const item of value as unknown[]) pending.push(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) pending.push(item);
    }
  }
  return { json, cut };
}
