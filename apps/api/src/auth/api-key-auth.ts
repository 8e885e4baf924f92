/**
 * API keys on every route (`X-Api-Key`, or a Bearer value starting with `ms_`), checked before
 * routing: a bad key is 401 on public routes too, so a client learns at once its key is wrong
 * rather than being served as anonymous. A key in the URL is refused (400) for the same reason,
 * and it would already sit in access logs and browser history.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Middleware } from 'koa';
import { BadRequestError } from '../../../../shared/errors.js';
import { API_KEY_PREFIX, looksLikeApiKey } from './api-key-format.js';
import type { ApiKeyPrincipal, ApiKeyVerifier } from './api-key-verifier.js';
import { bearerCredential, isBearerApiKey } from './authorization.js';

export { INVALID_API_KEY, type ApiKeyPrincipal } from './api-key-verifier.js';
export const KEY_IN_URL = 'API keys are accepted only in the X-Api-Key or Authorization header, never in the URL';
export const TWO_KEYS = 'Send the API key once: X-Api-Key and Authorization carry different keys';

/** A query parameter named like a key (api_key, apiKey, x-api-key...), or any value with our key prefix. */
const KEY_PARAM = /(?:^|&)(?:x[-_]?)?api[-_]?key=/i;
/** Routes with a credential of their own: the key check skips them (and the OpenAPI document says so). */
export const OWN_CREDENTIAL: ReadonlySet<string> = new Set(['/metrics']);

/** The key a request presents, '' for one with no value, undefined when it presents none. */
export function presentedApiKey(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-api-key'];
  const fromHeader = header === undefined ? undefined : (Array.isArray(header) ? header.join(',') : header).trim();
  const bearer = bearerCredential(headers.authorization);
  const fromBearer = bearer !== undefined && looksLikeApiKey(bearer) ? bearer : undefined;
  if (fromHeader !== undefined && fromBearer !== undefined && fromHeader !== fromBearer) throw new BadRequestError(TWO_KEYS);
  return fromHeader ?? fromBearer;
}

/** True when the URL's query carries what looks like a key. */
export function keyInUrl(url: string): boolean {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return false;
  const query = url.slice(queryAt + 1);
  return query.includes(API_KEY_PREFIX) || KEY_PARAM.test(query);
}

/**
 * For the fast path: `anonymous` (no key), `verified` (a key Redis found good moments ago) or `koa`
 * (a key to check or refuse). An anonymous request costs two header lookups and one string search.
 */
export function fastCredential(
  req: { headers: IncomingHttpHeaders; url?: string },
  verifier: ApiKeyVerifier,
): 'anonymous' | 'verified' | 'koa' {
  const { headers } = req;
  if (req.url !== undefined && keyInUrl(req.url)) return 'koa';
  const authorization = headers.authorization;
  if (headers['x-api-key'] === undefined && (authorization === undefined || !isBearerApiKey(authorization))) return 'anonymous';
  let key: string | undefined;
  try {
    key = presentedApiKey(headers);
  } catch {
    return 'koa'; // two different keys: Koa renders the 400
  }
  return key !== undefined && verifier.recentlyVerified(key) ? 'verified' : 'koa';
}

export function apiKeyAuth(verifier: ApiKeyVerifier): Middleware {
  return async (ctx, next) => {
    if (OWN_CREDENTIAL.has(ctx.path)) {
      await next();
      return;
    }
    if (keyInUrl(ctx.url)) throw new BadRequestError(KEY_IN_URL);
    const key = presentedApiKey(ctx.req.headers);
    if (key === undefined) {
      await next();
      return;
    }
    ctx.state.apiKey = await verifier.verify(key);
    await next();
  };
}

/** The key the request was authenticated with, if any. */
export function apiKeyOf(ctx: Context): ApiKeyPrincipal | undefined {
  return (ctx.state as { apiKey?: ApiKeyPrincipal }).apiKey;
}
