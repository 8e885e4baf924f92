// Small node:http helpers: the simulator has no framework, on purpose, so it stays a
// dependency-free stand-in for a third-party service.

import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a route decided to answer, before faults get a chance to spoil it. */
export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export function reply(status: number, body: unknown, headers?: Readonly<Record<string, string>>): Reply {
  return headers ? { status, body, headers } : { status, body };
}

export const NOT_FOUND = reply(404, { error: 'not_found' });
export const BAD_REQUEST = reply(400, { error: 'bad_request' });

export function sendRaw(res: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function send(res: ServerResponse, r: Reply): void {
  sendRaw(res, r.status, JSON.stringify(r.body), r.headers);
}

export class BodyError extends Error {
  override readonly name = 'BodyError';
}

/** Reads and parses a small JSON request body; an empty body counts as `{}`. */
export async function readJson(req: IncomingMessage, maxBytes = 64 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > maxBytes) throw new BodyError('body too large');
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BodyError('body is not JSON', { cause: error });
  }
}
