/**
 * Large bodies go out in slices, each written when the client has taken the one before: the write
 * timeout counts a write's completion as progress, so one 3 MB write to a slow but steady reader
 * would look stalled and be cut (docs/decisions.md#d12).
 */
import type { ServerResponse } from 'node:http';
import { Readable, Stream, pipeline } from 'node:stream';
import type { Middleware } from 'koa';

/** Far less than a socket takes in the time of any write timeout. */
export const SLICE_BYTES = 64 * 1024;

function* slices(body: Buffer): Generator<Buffer> {
  for (let at = 0; at < body.length; at += SLICE_BYTES) yield body.subarray(at, at + SLICE_BYTES);
}

/** A body as a stream of slices, for Koa or pipeline (a client gone ends it; nothing to report). */
function sliced(body: Buffer): Readable {
  return Readable.from(slices(body), { objectMode: false });
}

/** Ends `res` (its head written) with `body`: one write, or slices when it is larger than one. */
export function endPaced(res: ServerResponse, body: Buffer | undefined): void {
  if (body === undefined || body.length <= SLICE_BYTES) res.end(body);
  else pipeline(sliced(body), res, () => {});
}

/** Koa's responses the same way, with their Content-Length kept; outermost, so it sees the final body. */
export const pacedBodies: Middleware = async (ctx, next) => {
  await next();
  const body: unknown = ctx.body;
  if (ctx.respond === false || body === null || body === undefined || body instanceof Stream) return;
  // JSON is stringified here, once, as Koa would have: its length decides.
  const text = Buffer.isBuffer(body) || typeof body === 'string' ? body : JSON.stringify(body);
  const length = Buffer.byteLength(text);
  if (length <= SLICE_BYTES) {
    if (text !== body) ctx.body = text;
    return;
  }
  ctx.body = sliced(Buffer.isBuffer(text) ? text : Buffer.from(text));
  ctx.length = length;
};
