/**
 * A response body prepared once and served many times: its strong ETag and its compressed
 * forms are computed on first need and kept with it. Market reads hand these out of memory,
 * so a cached read costs no JSON work and no hashing.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'koa';

/** Bodies below this are sent as they are: compressing them saves nothing worth the CPU. */
const COMPRESS_MIN_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

export class Representation {
  readonly etag: string;
  private readonly encoded = new Map<Encoding, Buffer>();

  constructor(readonly body: Buffer) {
    this.etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  }

  static json(value: unknown): Representation {
    return new Representation(Buffer.from(JSON.stringify(value)));
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

/** Sends a representation with ETag/304, Cache-Control and content negotiation (D9). */
export function sendRepresentation(ctx: Context, representation: Representation, maxAgeSeconds: number): void {
  ctx.set('ETag', representation.etag);
  ctx.set('Cache-Control', `public, max-age=${Math.max(0, Math.floor(maxAgeSeconds))}`);
  ctx.set('Vary', 'Accept-Encoding');
  const ifNoneMatch = ctx.get('If-None-Match');
  if (ifNoneMatch && matchesEtag(ifNoneMatch, representation.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json; charset=utf-8';
  const encoding = representation.body.length >= COMPRESS_MIN_BYTES ? preferredEncoding(ctx.get('Accept-Encoding')) : null;
  if (encoding) {
    ctx.set('Content-Encoding', encoding);
    ctx.body = representation.bodyIn(encoding);
  } else {
    ctx.body = representation.body;
  }
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): `W/` is ignored, `*` matches. */
export function matchesEtag(header: string, etag: string): boolean {
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || tag === etag || tag === `W/${etag}`) return true;
  }
  return false;
}

/** br, then gzip, unless the client refuses them with q=0. Cheaper than full negotiation. */
export function preferredEncoding(acceptEncoding: string): Encoding | null {
  if (!acceptEncoding) return null;
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
