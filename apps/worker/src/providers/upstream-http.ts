/**
 * HTTP to the upstreams (docs/providers.md, "Bounded answers"). Every client (the index client,
 * and the adapters through `createProviderHttp`) uses one got client that never retries (BullMQ
 * does) and follows no redirect (a key header goes to the configured host only), and reads a body
 * to MAX_BODY_BYTES after decompression (a small gzip bomb is cut too), then drops it.
 */
import got, { RequestError, type Got } from 'got';
import type { Redis } from 'ioredis';
import type { Logger } from '../../../../shared/logger.js';
import { providerKeys, type ProviderBlock, type ProviderName } from '../../../../shared/provider-keys.js';
import type { CountFn } from '../counters.js';
import { parseRetryAfter, UpstreamError } from './upstream-error.js';
import { recordBilledCall, recordSpend } from './spend.js';

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

/** Errors of a request that never reached the provider: nothing can have been billed. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export interface ProviderHttpOptions {
  provider: ProviderName;
  baseUrl: string;
  /** The key's header, never logged. */
  headers: Readonly<Record<string, string>>;
  /** Scrubbed from any text that leaves this module. */
  secrets: readonly string[];
  /** The variable an operator fixes on 401/403 (ELFA_API_KEY, ...). */
  keyVariable: string;
  redis: Redis;
  logger: Logger;
  count: CountFn;
  /** Default 10 s. */
  timeoutMs?: number;
  /** The longest 429 wait sat out before the one retry; longer fails the job. Default 60 s. */
  maxRateLimitWaitMs?: number;
  /** When a 402 (out of credits) ends. */
  outOfCreditsUntil: (now: Date) => Date;
  /**
   * A 401/403 that is not a refused key, in words for the log (X's 403 `client-not-enrolled`:
   * the app lacks access, the token is fine); undefined: the key was refused.
   */
  refusal?: (status: number, body: unknown) => string | undefined;
  /** Credits a successful call costs when the response does not say. Default 0. */
  creditsPerCall?: number;
  now?: () => Date;
}

export interface ProviderResponse {
  status: number;
  body: unknown;
}

export interface ProviderRequest {
  searchParams?: Readonly<Record<string, string | number>>;
  timeoutMs?: number;
  /** Statuses the caller handles itself (keyword-mentions' 404/410, X's 400); their body is parsed when JSON. */
  accept?: readonly number[];
  /**
   * The caller's request budget (X_REQUESTS_PER_REFRESH), the first request already taken from
   * it: the retry after a 429 takes one more, and with none left the 429 fails the call.
   */
  budget?: { left: number };
}

export interface ProviderHttp {
  get(path: string, request?: ProviderRequest): Promise<ProviderResponse>;
}

/** The first day of the next month, 00:00 UTC: when Elfa's monthly credits come back. */
export function firstOfNextMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/**
 * The one HTTP path of the Elfa, CoinGecko and X adapters (docs/providers.md, "Quotas and errors"):
 * a blocked provider is not called; a 429 is waited out and tried once more; a 402 (or X's usage
 * cap) blocks the provider until its reset; a 401/403 is one error line; the job is marked billed
 * once a request may have reached the provider, so the worker does not retry it. Errors carry the
 * provider, the path and the status: never a header, a query or a body with a key.
 */
export function createProviderHttp(options: ProviderHttpOptions): ProviderHttp {
  const { provider, redis, logger, count } = options;
  const now = options.now ?? (() => new Date());
  const client = createUpstreamClient(options.baseUrl, options.headers);
  const scrub = (text: string) => options.secrets.reduce((out, secret) => (secret ? out.replaceAll(secret, '***') : out), text);
  const refusedOnce = new Set<number>();

  const fail = (
    path: string,
    message: string,
    extra: { status?: number; retryable?: boolean; retryAfterMs?: number; cause?: unknown } = {},
  ) => new UpstreamError(scrub(`${provider} ${path}: ${message}`), extra);

  async function blockedUntil(): Promise<ProviderBlock | undefined> {
    const raw = await redis.hget(providerKeys.blocked(), provider);
    if (!raw) return undefined;
    const block = JSON.parse(raw) as ProviderBlock;
    if (Date.parse(block.until) > now().getTime()) return block;
    await redis.hdel(providerKeys.blocked(), provider);
    logger.info({ provider }, `${provider}: the block has ended; calling again`);
    return undefined;
  }

  async function block(until: Date, status: number, reason: string): Promise<void> {
    const entry: ProviderBlock = { until: until.toISOString(), reason, status };
    await redis.hset(providerKeys.blocked(), provider, JSON.stringify(entry));
    count('provider_blocked', provider, reason);
    logger.warn(
      { provider, status, until: entry.until },
      `${provider}: ${reason}; no call to ${provider} until ${entry.until}, the snapshots keep their cachedAt`,
    );
  }

  async function once(path: string, request: ProviderRequest) {
    try {
      const response = await fetchBounded(client, path, {
        searchParams: request.searchParams,
        timeoutMs: request.timeoutMs ?? options.timeoutMs ?? 10_000,
      });
      const charged = Number(response.headers['x-elfa-credits']);
      recordBilledCall();
      recordSpend(provider, {
        calls: 1,
        credits: Number.isFinite(charged) ? charged : response.statusCode < 400 ? (options.creditsPerCall ?? 0) : 0,
      });
      count('provider_calls', provider, String(response.statusCode));
      return response;
    } catch (error) {
      recordSpend(provider, { calls: 1 });
      if (error instanceof BodyTooLargeError) {
        // It answered (and may have billed): the same body would come again, so not retried.
        recordBilledCall();
        count('provider_calls', provider, 'too_large');
        throw fail(path, error.message, { retryable: false });
      }
      count('provider_calls', provider, 'network');
      const code = requestErrorCode(error);
      // A timeout or a reset may come after the provider took (and billed) the request.
      if (!NOT_CONNECTED.has(code)) recordBilledCall();
      throw fail(path, code === 'ETIMEDOUT' ? 'timed out' : code);
    }
  }

  function waitMs(headers: Record<string, string | string[] | undefined>): number | undefined {
    const epoch = headers['x-ratelimit-reset'] ?? headers['x-rate-limit-reset'];
    if (typeof epoch === 'string' && /^\d+(\.\d+)?$/.test(epoch.trim())) return Math.max(0, Number(epoch) * 1000 - now().getTime());
    return parseRetryAfter(headers['retry-after'], now().getTime());
  }

  /** Keyless CoinGecko's 401 with error 10002 ("API Key Missing") gets a line that says what to do: a Demo key is free. */
  function refusalLine(status: number, body: unknown): string {
    const error = body as { status?: { error_code?: unknown }; error_code?: unknown } | null | undefined;
    const keyless = Object.keys(options.headers).length === 0;
    if (provider === 'coingecko' && status === 401 && keyless && Number(error?.status?.error_code ?? error?.error_code) === 10002) {
      return 'coingecko: HTTP 401 (error 10002, API key missing): CoinGecko answers no keyless calls here; set COINGECKO_API_KEY to a free Demo key (COINGECKO_PLAN=demo, the default)';
    }
    return `${provider}: HTTP ${status}, the key was refused: check ${options.keyVariable}`;
  }

  return {
    async get(path, request = {}) {
      const blocked = await blockedUntil();
      if (blocked) throw fail(path, `not called: ${blocked.reason} (until ${blocked.until})`, { status: blocked.status, retryable: false });

      let response = await once(path, request);
      if (response.statusCode === 429) {
        const body = parseBody(response.body);
        if (isUsageCap(body)) {
          await block(firstOfNextMonth(now()), 429, 'usage cap reached');
          throw fail(path, 'HTTP 429 usage cap', { status: 429, retryable: false });
        }
        const wait = waitMs(response.headers);
        const maxWait = options.maxRateLimitWaitMs ?? 60_000;
        if (wait === undefined || wait > maxWait) {
          // Failed for this run, not retried by the job: the next scheduled refresh asks again.
          throw fail(path, `HTTP 429 (reset ${wait === undefined ? 'not given' : `in ${Math.ceil(wait / 1000)} s`})`, {
            status: 429,
            retryable: false,
            retryAfterMs: wait,
          });
        }
        if (request.budget && request.budget.left <= 0) {
          throw fail(path, 'HTTP 429, and no request left in the budget to try again', {
            status: 429,
            retryable: false,
            retryAfterMs: wait,
          });
        }
        if (request.budget) request.budget.left -= 1;
        logger.info({ provider, waitMs: wait }, `${provider}: rate limited; trying once more after the reset`);
        await new Promise((resolve) => setTimeout(resolve, wait));
        response = await once(path, request);
        if (response.statusCode === 429) throw fail(path, 'HTTP 429 again after the reset', { status: 429, retryable: false });
      }
      const status = response.statusCode;
      if (status === 402) {
        await block(options.outOfCreditsUntil(now()), 402, 'out of credits (HTTP 402)');
        throw fail(path, 'HTTP 402 out of credits', { status, retryable: false });
      }
      if (status === 401 || status === 403) {
        const body = parseBody(response.body);
        const refusal = options.refusal?.(status, body);
        const message = refusal ? `HTTP ${status} ${refusal}` : `HTTP ${status}: check ${options.keyVariable}`;
        if (!refusedOnce.has(status)) {
          refusedOnce.add(status);
          logger.error({ provider, status }, refusal ? `${provider}: ${message}` : refusalLine(status, body));
        }
        throw fail(path, message, { status, retryable: false });
      }
      refusedOnce.clear();
      if (status >= 300 && status < 400) {
        // Redirects are not followed (the key header would go to the new host): the configured URL is wrong or moved.
        throw fail(path, `HTTP ${status}, a redirect (not followed): check the provider's URL`, { status, retryable: false });
      }
      if (status >= 400 && !request.accept?.includes(status)) {
        const detail = errorDetail(parseBody(response.body));
        // 408 and 5xx may pass with time (BullMQ's bounded attempts); other 4xx are our request.
        throw fail(path, `HTTP ${status}${detail ? ` (${detail})` : ''}`, { status, retryable: status === 408 || status >= 500 });
      }
      const parsed = parseBoundedJson(response.body);
      if (parsed === undefined && status < 400) throw fail(path, 'malformed JSON', { status, retryable: false });
      if (parsed && parsed.cut > 0)
        logger.warn(
          { provider, path, lists: parsed.cut },
          `${provider} ${path}: a list over ${MAX_LIST_ITEMS} items was cut to its first ${MAX_LIST_ITEMS}`,
        );
      return { status, body: parsed?.json };
    },
  };
}

function parseBody(text: string): unknown {
  return parseBoundedJson(text)?.json;
}

/** X's monthly usage cap rides on a 429 like a rate limit; only its problem type tells them apart. */
function isUsageCap(body: unknown): boolean {
  const type = (body as { type?: unknown } | null | undefined)?.type;
  return typeof type === 'string' && type.endsWith('/usage-capped');
}

/** A short reason from any of the three providers' error bodies (message, error, detail, status.error_message). */
export function errorDetail(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const candidate of [record.message, record.error, record.detail, record.title, record.status]) {
    if (typeof candidate === 'string') return candidate.slice(0, 200);
    if (typeof candidate === 'object' && candidate !== null) {
      const nested = errorDetail(candidate) ?? ((candidate as { error_message?: unknown }).error_message as string | undefined);
      if (typeof nested === 'string') return nested.slice(0, 200);
    }
  }
  return undefined;
}
