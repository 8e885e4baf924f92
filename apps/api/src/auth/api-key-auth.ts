/**
 * API keys on every route. A request that presents a key (`X-Api-Key: <key>`, or
 * `Authorization: Bearer <key>` where the value starts with the key prefix `ms_`) is
 * authenticated before routing: a valid key acts as its user (and gets the key's own budget of
 * stats misses), anything else is 401 `Invalid API key`, on public routes too, so a client learns
 * at once that its key is wrong instead of being served as anonymous. A request without a key is
 * untouched: market routes stay public and JWTs (Bearer values without the prefix) work as before.
 *
 * A key in the URL is refused (400) rather than ignored: ignoring it would serve the client as
 * anonymous while it believes its key works, and the key would already sit in access logs and
 * browser history. /metrics is left to its own credential (METRICS_TOKEN).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Middleware } from 'koa';
import { AuthError, BadRequestError } from '../../../../shared/errors.js';
import { API_KEY_PREFIX, looksLikeApiKey } from './api-key-format.js';
import { toInfo, type ApiKeyInfo, type ApiKeyStore } from './api-keys.js';
import { toPublicUser, type PublicUser, type UserStore } from './users.js';

/** The caller of a keyed request: the key (public fields only) and the user it acts as. */
export interface ApiKeyPrincipal {
  key: ApiKeyInfo;
  user: PublicUser;
}

export const INVALID_API_KEY = 'Invalid API key';
export const KEY_IN_URL = 'API keys are accepted only in the X-Api-Key or Authorization header, never in the URL';
export const TWO_KEYS = 'Send the API key once: X-Api-Key and Authorization carry different keys';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
/** A query parameter named like a key (api_key, apiKey, x-api-key...), or any value with our key prefix. */
const KEY_PARAM = /(?:^|&)(?:x[-_]?)?api[-_]?key=/i;
/** Routes with a credential of their own. */
const OWN_CREDENTIAL = new Set(['/metrics']);

/** The key a request presents, '' for one with no value, undefined when it presents none. */
export function presentedApiKey(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-api-key'];
  const fromHeader = header === undefined ? undefined : (Array.isArray(header) ? header.join(',') : header).trim();
  const bearer = BEARER.exec(headers.authorization ?? '')?.[1];
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
 * For the fast path (http/fast-reads.ts): a request it must leave to Koa because a key has to
 * be checked (or refused). Header lookups and one string search: nothing on the anonymous path.
 */
export function needsKeyCheck(req: { headers: IncomingHttpHeaders; url?: string }): boolean {
  const { headers } = req;
  if (headers['x-api-key'] !== undefined) return true;
  const authorization = headers.authorization;
  if (authorization !== undefined && /^Bearer[ \t]+ms_/i.test(authorization)) return true;
  return req.url !== undefined && keyInUrl(req.url);
}

export function apiKeyAuth(deps: { apiKeys: ApiKeyStore; users: UserStore }): Middleware {
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
    const record = await deps.apiKeys.use(key);
    // The owner must still exist as the same user (removed, or removed and added again: refused),
    // and acts with its current role.
    const user = record ? await deps.users.find(record.email) : null;
    if (!record || !user || user.id !== record.userId) throw new AuthError(INVALID_API_KEY);
    const principal: ApiKeyPrincipal = { key: toInfo(record), user: toPublicUser(user) };
    ctx.state.apiKey = principal;
    await next();
  };
}

/** The key the request was authenticated with, if any. */
export function apiKeyOf(ctx: Context): ApiKeyPrincipal | undefined {
  return (ctx.state as { apiKey?: ApiKeyPrincipal }).apiKey;
}
