/**
 * The bearer-token middleware (docs/decisions.md#d3): the user must still exist with the token's id,
 * so removing a user or changing its password ends its tokens at once, and roles are the stored ones.
 */
import type { Context, Middleware } from 'koa';
import { AuthError } from '../../../../shared/errors.js';
import { apiKeyOf, type ApiKeyPrincipal } from './api-key-auth.js';
import type { AuthServices } from './auth-services.js';
import { bearerCredential } from './authorization.js';
import type { TokenClaims } from './tokens.js';
import type { Role } from './types.js';
import { toPublicUser, type PublicUser } from './users.js';

export interface Authenticated {
  user: PublicUser;
  /** Set when the credential was a JWT. */
  claims?: TokenClaims;
  /** Set when the credential was an API key (checked by apiKeyAuth before routing). */
  apiKey?: ApiKeyPrincipal;
}

export function bearerAuth(auth: AuthServices): Middleware {
  return async (ctx, next) => {
    ctx.state.auth = await authenticate(ctx, auth);
    await next();
  };
}

/** Who the request's credential acts for (an API key's user, or a JWT's), else 401; the MCP tools use it too. */
export async function authenticate(ctx: Context, auth: AuthServices): Promise<Authenticated> {
  // An API key acts as its user; apiKeyAuth has already refused an invalid one.
  const apiKey = apiKeyOf(ctx);
  if (apiKey) return { user: apiKey.user, apiKey };
  // `Bearer <token>`, scheme in any case; anything else counts as no token.
  const token = bearerCredential(ctx.get('Authorization'));
  if (!token) throw new AuthError('Missing token');
  const claims = auth.tokens.verify(token);
  const user = await auth.users.find(claims.email);
  if (!user || user.id !== claims.sub) throw new AuthError('Invalid token');
  // Issued before the user's last password change: revoked (docs/decisions.md#d3 keeps the message).
  if (claims.iat < user.tokensNotBefore) throw new AuthError('Invalid token');
  return { user: toPublicUser(user), claims };
}

/** After bearerAuth: 403 `Forbidden` unless the user has this role. */
export function requireRole(role: Role): Middleware {
  return async (ctx, next) => {
    if (authenticatedUser(ctx).role !== role) throw new AuthError('Forbidden', 403);
    await next();
  };
}

/** The user bearerAuth let through; a route without bearerAuth in front is a programming error. */
export function authenticatedUser(ctx: Context): PublicUser {
  return authentication(ctx).user;
}

/** The user and the credential bearerAuth let through. */
export function authentication(ctx: Context): Authenticated {
  const auth = (ctx.state as { auth?: Authenticated }).auth;
  if (!auth) throw new Error('authentication() on a route without bearerAuth');
  return auth;
}
