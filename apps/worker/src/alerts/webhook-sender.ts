/**
 * Sends one signed webhook attempt: the only code that talks to a user's receiver (README, "Alerts",
 * "No request forgery"). Every address the host resolves to is checked at every connection (DNS
 * rebinding), by our policy, which names the reason, and again by request-filtering-agent under it.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import { addressRefusal, isIpLiteral, schemeRefusal, urlHost, type Resolver } from '../../../../shared/alerts/address-policy.js';
import { parseRetryAfter } from '../providers/upstream-error.js';

/** The most of a receiver's answer read (the rest is dropped with the connection). */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface SenderOptions {
  requireHttps: boolean;
  allowLoopback: boolean;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  /** Tests inject one; default dns.lookup (every address). */
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

const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

export function createWebhookSender(options: SenderOptions) {
  const resolve = options.resolve ?? ((host: string) => dnsLookup(host, { all: true, verbatim: true }));
  // Kept-alive sockets: one connection per receiver and delivery slot, not one per delivery. The
  // address checks run when a socket connects, and a kept socket stays on the address checked.
  const filter = { allowIPAddressList: options.allowLoopback ? LOOPBACK : [], keepAlive: true };
  const agents = { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };
  const lookup = ((hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (addresses) => {
        for (const { address } of addresses) {
          const refusal = addressRefusal(address, options.allowLoopback);
          if (refusal) return callback(new AddressRefusedError(`host ${hostname} resolves to ${refusal}`));
        }
        if (addresses.length === 0) return callback(new AddressRefusedError(`host ${hostname} does not resolve`));
        if (lookupOptions.all) return callback(null, addresses);
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: unknown) => callback(error),
    );
  }) as LookupFunction;

  /** Why this URL may not be called at all (scheme, credentials, an IP literal refused), else undefined. */
  function urlRefusal(raw: string): string | undefined {
    const url = URL.parse(raw);
    if (!url) return 'not a valid URL';
    const scheme = schemeRefusal(url, options.requireHttps);
    if (scheme) return `the URL ${scheme}`;
    const host = urlHost(url);
    return isIpLiteral(host) ? addressRefusal(host, options.allowLoopback) : undefined;
  }
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
      const refusal = urlRefusal(attempt.url);
      if (refusal) return { kind: 'failed', status: null, latencyMs: 0, retryable: false, error: refusal };
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
        const message = refused || typeof code !== 'string' ? (error as Error).message : `${code}: ${(error as Error).message}`;
        return { kind: 'failed', status: null, latencyMs: elapsed(), retryable: !refused && !agentRefused, error: message };
      }
    },

    close(): void {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
