/**
 * The got client and the bounded read of every upstream client (the index client, and the
 * adapters through provider-http.ts; docs/providers.md, "Bounded answers"): got never retries
 * (BullMQ does) and follows no redirect (a key header goes to the configured host only); a body
 * is read to MAX_BODY_BYTES after decompression (a small gzip bomb is cut too), then dropped.
 */
import got, { RequestError, type Got } from 'got';

/** Above any answer we ask for: an index posts page (500 posts) or an X page is a few hundred KB. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Above any page we ask for (index posts: 500 a page; CoinGecko 250; X and Elfa 100). */
export const MAX_LIST_ITEMS = 1_000;

/** Statuses are the caller's (no HTTPError thrown); `headers` (a key's) are never logged. */
export function createUpstreamClient(baseUrl: string, headers: Readonly<Record<string, string>>): Got {
  return got.extend({
    prefixUrl: baseUrl.replace(/\/+$/, ''),
    headers: { accept: 'application/json', ...headers },
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: false,
  });
}

export interface UpstreamAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The upstream sent more than we read: the request reached it (and may have been billed). */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor() {
    super(`body over ${MAX_BODY_BYTES} bytes, not read`);
  }
}

/**
 * GET `path` and read its body up to MAX_BODY_BYTES. Rejects with BodyTooLargeError past it (a
 * declared Content-Length past it is refused before reading), or with got's RequestError
 * (timeout, connection refused or reset).
 */
export function fetchBounded(
  client: Got,
  path: string,
  request: { searchParams?: Readonly<Record<string, string | number>> | undefined; timeoutMs: number },
): Promise<UpstreamAnswer> {
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
      tooLarge = new BodyTooLargeError();
      stream.destroy();
      reject(tooLarge);
    };
    stream.on('response', (response: { statusCode: number; headers: UpstreamAnswer['headers'] }) => {
      answer = { statusCode: response.statusCode, headers: response.headers };
      if (Number(response.headers['content-length']) > MAX_BODY_BYTES) refuse();
    });
    stream.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) refuse();
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
 * The body as JSON (undefined when it is not), every array cut to its first MAX_LIST_ITEMS (the
 * lists we read are ranked or newest first); `cut` counts the arrays cut, for a log line.
 */
export function parseBoundedJson(text: string): { json: unknown; cut: number } | undefined {
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
      if (value.length > MAX_LIST_ITEMS) {
        value.length = MAX_LIST_ITEMS;
        cut += 1;
      }
      for (const item of value as unknown[]) pending.push(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) pending.push(item);
    }
  }
  return { json, cut };
}
