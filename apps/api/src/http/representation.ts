/** A response body prepared once and served many times, with its ETag and its compressed forms made on first need. */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import { boundedCache } from '../cache/bounded-cache.js';
import { endPaced } from './paced-body.js';
import { PUBLIC_READ_HEADERS } from './public-read-headers.js';

/** Bodies below this are sent as they are: compressing them saves nothing worth the CPU. */
const COMPRESS_MIN_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

export class Representation {
  readonly etag: string;
  private readonly encoded = new Map<Encoding, Buffer>();
  /** Other forms of the body (the MCP answer's), by the function that makes each: made on first use. */
  private forms: Map<(body: Buffer) => unknown, unknown> | undefined;

  constructor(readonly body: Buffer) {
    this.etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  }

  static json(value: unknown): Representation {
    return new Representation(Buffer.from(JSON.stringify(value)));
  }

  /** `make(body)`, made once and kept with the body; `make` must be one function (a module's), not one made per call. */
  formOf<T>(make: (body: Buffer) => T): T {
    this.forms ??= new Map();
    if (this.forms.has(make)) return this.forms.get(make) as T;
    const form = make(this.body);
    this.forms.set(make, form);
    return form;
  }

  /** The body in `encoding`, compressed on first use (Brotli at a quality that stays cheap). */
  bodyIn(encoding: Encoding): Buffer {
    let body = this.encoded.get(encoding);
    if (!body) {
      body =
        encoding === 'br'
          ? brotliCompressSync(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
          : gzipSync(this.body, { level: 6 });
      this.encoded.set(encoding, body);
    }
    return body;
  }
}

/** Header fields as name, value, name, value...: what node:http's writeHead takes without building anything. */
export type HeaderFields = readonly string[];

/** What a read answers: status, headers and body, decided once for Koa and the fast path alike. */
export interface Reply {
  status: 200 | 304;
  headers: HeaderFields;
  body: Buffer | null;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const cacheControl = (maxAgeSeconds: number) => `public, max-age=${Math.max(0, Math.floor(maxAgeSeconds))}`;

/**
 * ETag/304, Cache-Control and content negotiation (docs/decisions.md#d9), appended to `headers`
 * (the caller's own fields, in a fresh array): one array per request, never built in steps or copied.
 */
export function replyWith(
  representation: Representation,
  maxAgeSeconds: number,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
  encodings: EncodingNegotiator,
  headers: string[] = [],
): Reply {
  const { etag } = representation;
  const caching = cacheControl(maxAgeSeconds);
  if (ifNoneMatch && matchesEtag(ifNoneMatch, etag)) {
    headers.push('ETag', etag, 'Cache-Control', caching, 'Vary', 'Accept-Encoding');
    return { status: 304, headers, body: null };
  }
  const encoding = representation.body.length >= COMPRESS_MIN_BYTES ? encodings.preferred(acceptEncoding) : null;
  const body = encoding ? representation.bodyIn(encoding) : representation.body;
  headers.push(
    'ETag',
    etag,
    'Cache-Control',
    caching,
    'Vary',
    'Accept-Encoding',
    'Content-Type',
    JSON_TYPE,
    'Content-Length',
    String(body.length),
  );
  if (encoding) headers.push('Content-Encoding', encoding);
  return { status: 200, headers, body };
}

/**
 * Sends a representation through Koa (the fast path writes the same Reply to node:http), with
 * `contentType` when it is not JSON (a page or a file of the dashboard's).
 */
export function sendRepresentation(
  ctx: Context,
  representation: Representation,
  maxAgeSeconds: number,
  encodings: EncodingNegotiator,
  contentType?: string,
): void {
  sendReply(ctx, replyWith(representation, maxAgeSeconds, ctx.get('If-None-Match'), ctx.get('Accept-Encoding'), encodings), contentType);
}

function sendReply(ctx: Context, reply: Reply, contentType?: string): void {
  // Headers first: Koa only infers a Content-Type for a Buffer body when none is set.
  for (let i = 0; i < reply.headers.length; i += 2) ctx.set(reply.headers[i]!, reply.headers[i + 1]!);
  ctx.status = reply.status;
  if (!reply.body) return;
  if (contentType) ctx.set('Content-Type', contentType);
  ctx.body = reply.body;
}

/** A market read's answer: the prepared body and how long it may be cached. */
export interface ReadAnswer {
  representation: Representation;
  maxAgeSeconds: number;
}

/** The public read headers (CORS) as fields. */
const PUBLIC_READ_FIELDS: HeaderFields = Object.entries(PUBLIC_READ_HEADERS).flat();

/**
 * Everything a market read sends, by Koa and the fast path alike: the request id, nosniff (the fast
 * path answers before app.ts sets it), CORS, and the representation's. (The RateLimit fields come
 * only with a charged lookup, which only Koa's path makes.)
 */
export function readReply(
  answer: ReadAnswer,
  requestId: string,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
  encodings: EncodingNegotiator,
): Reply {
  return replyWith(answer.representation, answer.maxAgeSeconds, ifNoneMatch, acceptEncoding, encodings, [
    'X-Request-Id',
    requestId,
    'X-Content-Type-Options',
    'nosniff',
    ...PUBLIC_READ_FIELDS,
  ]);
}

/** Sends a market read through Koa. */
export function sendRead(ctx: Context, answer: ReadAnswer, encodings: EncodingNegotiator): void {
  const requestId = typeof ctx.state.requestId === 'string' ? ctx.state.requestId : ctx.response.get('X-Request-Id');
  sendReply(ctx, readReply(answer, requestId, ctx.get('If-None-Match'), ctx.get('Accept-Encoding'), encodings));
}

/** Writes a market read straight to node:http (the fast path): the same reply. */
export function writeRead(res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, reply.headers as string[]);
  endPaced(res, reply.body ?? undefined);
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): `W/` is ignored, `*` matches. */
export function matchesEtag(header: string, etag: string): boolean {
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || tag === etag || tag === `W/${etag}`) return true;
  }
  return false;
}

/** br, then gzip, unless refused with q=0; remembered per Accept-Encoding value, as clients send the same few. */
export class EncodingNegotiator {
  private readonly remembered = boundedCache<string, Encoding | 'identity'>({ max: 256 });

  preferred(acceptEncoding: string | undefined): Encoding | null {
    if (!acceptEncoding) return null;
    let encoding = this.remembered.get(acceptEncoding);
    if (encoding === undefined) {
      encoding = negotiate(acceptEncoding) ?? 'identity';
      this.remembered.set(acceptEncoding, encoding);
    }
    return encoding === 'identity' ? null : encoding;
  }
}

function negotiate(acceptEncoding: string): Encoding | null {
  const offered = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    offered.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  const accepts = (encoding: string) => {
    const q = offered.get(encoding) ?? offered.get('*');
    return q !== undefined && q > 0;
  };
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}
