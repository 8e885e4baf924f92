/**
 * A webhook receiver on loopback for the alert tests: it verifies every delivery with the
 * `standardwebhooks` package (the reference implementation) against the secrets it is given,
 * records what it got, and answers what the test says. It can go down and come back on the
 * same port.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** Which of the known secrets verified it (index into `secrets`); -1 when none did. */
  verifiedBy: number;
  path: string;
  /** When it arrived (ms). */
  at: number;
}

export interface Receiver {
  url(path?: string): string;
  received: Received[];
  /** The secrets deliveries are verified with (add the one a rule was created with). */
  secrets: string[];
  /** The status to answer (default 200), or a function of the request; `hold` never answers. */
  answer: number | 'hold' | ((request: Received) => number | 'hold');
  /** Extra headers on every answer (Retry-After). */
  headers: Record<string, string>;
  /** How long each answer is held back (ms): a slow receiver. Default 0. */
  delayMs: number;
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startReceiver(): Promise<Receiver> {
  let server: Server;
  let port = 0;
  const held = new Set<() => void>();
  const receiver: Receiver = {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received: [],
    secrets: [],
    answer: 200,
    headers: {},
    delayMs: 0,
    async start() {
      server = createServer((request, response) => {
        void body(request).then((text) => {
          const headers = {
            'webhook-id': String(request.headers['webhook-id'] ?? ''),
            'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
            'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
          };
          const verifiedBy = receiver.secrets.findIndex((secret) => {
            try {
              new Webhook(secret).verify(text, headers);
              return true;
            } catch {
              return false;
            }
          });
          const got: Received = {
            id: headers['webhook-id'],
            timestamp: headers['webhook-timestamp'],
            signature: headers['webhook-signature'],
            body: text,
            verifiedBy,
            path: request.url ?? '',
            at: Date.now(),
          };
          receiver.received.push(got);
          const status = typeof receiver.answer === 'function' ? receiver.answer(got) : receiver.answer;
          if (status === 'hold') {
            held.add(() => response.destroy());
            return;
          }
          const send = () => response.writeHead(status, { 'content-type': 'text/plain', ...receiver.headers }).end('ok');
          if (receiver.delayMs <= 0) return send();
          const timer = setTimeout(send, receiver.delayMs);
          held.add(() => {
            clearTimeout(timer);
            response.destroy();
          });
        });
      });
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    },
    async stop() {
      for (const release of held) release();
      held.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    close() {
      return receiver.stop();
    },
  };
  await receiver.start();
  return receiver;
}
