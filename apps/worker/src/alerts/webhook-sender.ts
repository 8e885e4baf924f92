/**
 * Sends one signed webhook attempt: the only code that talks to a user's receiver (README, "Alerts",
 * "No request forgery"). Every address the host resolves to is checked at every connection (DNS
 * rebinding), by our policy, which names the reason, and again by request-filtering-agent under it.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import { resolvedRefusal, urlRefusal, type Resolver } from '../../../../shared/alerts/address-policy.js';
import { boundedResolver } from '../../../../shared/alerts/bounded-resolver.js';
import { parseRetryAfter } from '../providers/upstream-error.js';

/** The most of a receiver's answer read (the rest is dropped with the connection). */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface SenderOptions {
  requireHttps: boolean;
  allowLoopback: boolean;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  /** Tests inject one; default a bounded c-ares resolver (every address). */
  resolve?: Resolver;
}

export interface WebhookAttempt {
  url: string;
  id: string;
  timestamp: Date;
  body: string;
  secrets: readonly string[];
}

export type AttemptResult =
  | { kind: 'delivered'; status: number; latencyMs: number }
  /** No 2xx; `retryable` for network errors, timeouts, 5xx, 408 and 429. */
  | { kind: 'failed'; status: number | null; latencyMs: number; retryable: boolean; retryAfterMs?: number; error: string };

/** Our refusal of an address, carried through the socket's lookup callback. */
class AddressRefusedError extends Error {
  override readonly name = 'AddressRefusedError';
  readonly code = 'ERR_ADDRESS_REFUSED';
}

const LOOPBACK = ['127.0.0.0/8', '::1'];

/** Standard Webhooks signatures, one per secret, space-separated. */
export function signatures(attempt: Pick<WebhookAttempt, 'id' | 'timestamp' | 'body' | 'secrets'>): string {
  return attempt.secrets.map((secret) => new Webhook(secret).sign(attempt.id, attempt.timestamp, attempt.body)).join(' ');
}

/** IPv4 and IPv6 addresses (with a port) in a socket error's message, as `<address>`. */
const withoutAddresses = (message: string): string =>
  message
    .replace(/\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b/g, '<address>')
    .replace(/\[?\b[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7}\]?(:\d+)?/gi, '<address>');

const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

export function createWebhookSender(options: SenderOptions) {
  // c-ares, bounded in time and concurrency: a slow name delays only its own deliveries, not the thread pool's.
  const resolve = options.resolve ?? boundedResolver({ timeoutMs: options.connectTimeoutMs });
  // Kept-alive sockets: one connection per receiver and delivery slot, not one per delivery. The
  // address checks run when a socket connects, and a kept socket stays on the address checked.
  const filter = { allowIPAddressList: options.allowLoopback ? LOOPBACK : [], keepAlive: true };
  const agents = { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };
  const lookup = ((hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (addresses) => {
        const refusal = resolvedRefusal(hostname, addresses, options.allowLoopback);
        if (refusal) return callback(new AddressRefusedError(refusal));
        if (lookupOptions.all) return callback(null, addresses);
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: unknown) => callback(error),
    );
  }) as LookupFunction;

  /** One POST with node:http, which follows no redirect (got's per-request machinery cost a third of a delivery's CPU). */
  function post(attempt: WebhookAttempt): Promise<{ status: number; retryAfter: number | undefined }> {
    return new Promise((resolve, reject) => {
      const url = new URL(attempt.url);
      const https = url.protocol === 'https:';
      const request = (https ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        agent: https ? agents.https : agents.http,
        lookup,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(attempt.body),
          'user-agent': 'market-signals-webhooks/1',
          'webhook-id': attempt.id,
          'webhook-timestamp': String(Math.floor(attempt.timestamp.getTime() / 1000)),
          'webhook-signature': signatures(attempt),
        },
      });
      const fail = (code: string, limitMs: number) => request.destroy(Object.assign(new Error(`timed out after ${limitMs} ms`), { code }));
      const total = setTimeout(() => fail('ETIMEDOUT', options.requestTimeoutMs), options.requestTimeoutMs);
      const done = () => clearTimeout(total);
      request.on('socket', (socket) => {
        if (!socket.connecting) return; // a kept-alive socket, connected (and checked) before
        const connect = setTimeout(() => fail('ECONNTIMEDOUT', options.connectTimeoutMs), options.connectTimeoutMs);
        socket.once('connect', () => clearTimeout(connect)).once('close', () => clearTimeout(connect));
      });
      request.on('error', (error) => {
        done();
        reject(error);
      });
      request.on('response', (response) => {
        const answer = { status: response.statusCode ?? 0, retryAfter: parseRetryAfter(response.headers['retry-after']) };
        const finish = () => {
          done();
          resolve(answer);
        };
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // The status is all we need: past 64 KiB the rest is not read (and the socket not kept).
          if (read >= MAX_ANSWER_BYTES) {
            request.destroy();
            finish();
          }
        });
        response.on('end', finish);
        response.on('error', finish);
        response.on('aborted', finish);
      });
      request.end(attempt.body);
    });
  }

  return {
    async send(attempt: WebhookAttempt): Promise<AttemptResult> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      // The scheme, credentials and an IP literal, as when the rule was saved (its addresses at connection).
      const refusal = await urlRefusal(attempt.url, { requireHttps: options.requireHttps, allowLoopback: options.allowLoopback });
      if (refusal) return { kind: 'failed', status: null, latencyMs: 0, retryable: false, error: `the URL ${refusal}` };
      try {
        const { status, retryAfter } = await post(attempt);
        if (status >= 200 && status < 300) return { kind: 'delivered', status, latencyMs: elapsed() };
        const retryable = isRetryableStatus(status);
        return {
          kind: 'failed',
          status,
          latencyMs: elapsed(),
          retryable,
          ...(retryable && retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
          error: status >= 300 && status < 400 ? `redirect (${status}) not followed` : `receiver answered ${status}`,
        };
      } catch (error) {
        const refused = error instanceof AddressRefusedError;
        const agentRefused = error instanceof Error && /is not allowed\. Because/.test(error.message);
        const code = (error as { code?: unknown }).code;
        const raw = refused || typeof code !== 'string' ? (error as Error).message : `${code}: ${(error as Error).message}`;
        // The attempt log never says where a host points: the filtering agent's and the socket's messages name addresses.
        const message = agentRefused
          ? `host ${new URL(attempt.url).hostname} resolves to a refused address`
          : refused
            ? raw
            : withoutAddresses(raw);
        return { kind: 'failed', status: null, latencyMs: elapsed(), retryable: !refused && !agentRefused, error: message };
      }
    },

    close(): void {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
