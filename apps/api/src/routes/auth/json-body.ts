/**
 * JSON bodies for the few routes that take one (not global: reads have none). @koa/bodyparser alone
 * answers a non-JSON type with an empty body instead of 415, and a malformed body with an unexposed 400.
 */
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { BadRequestError } from '../../../../../shared/errors.js';

const JSON_TYPES = ['application/json', 'application/*+json'];

export function jsonBody(options: { limit: string }): Middleware {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: options.limit,
    // Not co-body's "strict" (objects and arrays only): a valid `null` or `"text"` is valid
    // JSON, and the route's own shape check answers it. Still JSON.parse, with prototype
    // poisoning (`__proto__` keys) refused as malformed.
    jsonStrict: false,
    // The type was checked just below; parse whatever passed.
    detectJSON: () => true,
  });
  return async (ctx, next) => {
    const noBodyAtAll = ctx.get('Content-Type') === '' && !ctx.request.length;
    if (ctx.request.is(JSON_TYPES) === false && !noBodyAtAll) {
      throw new BadRequestError('Unsupported media type', 415);
    }
    try {
      await parse(ctx, async () => {});
    } catch (error) {
      throw translate(error);
    }
    await next();
  };
}

/** A malformed body is named so; the parser's 413 and 415 are the error handler's to translate. */
function translate(error: unknown): unknown {
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 400 || error instanceof SyntaxError || isDecompressionError(error)) {
    return new BadRequestError('Invalid JSON body', 400, { cause: error });
  }
  return error;
}

/** zlib's error for a compressed body that does not decompress (`Z_*`, brotli's `ERR__ERROR_FORMAT_*`): the client's bytes are wrong. */
function isDecompressionError(error: unknown): boolean {
  const { errno, code } = (error ?? {}) as { errno?: unknown; code?: unknown };
  return typeof errno === 'number' && typeof code === 'string' && /^(Z_|ERR__ERROR_)/.test(code);
}
