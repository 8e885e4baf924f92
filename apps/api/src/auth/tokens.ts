/**
 * Access tokens (docs/decisions.md#d3). The secret is a KeyObject made once: with a string,
 * jsonwebtoken re-imports the key on every call, about thirty times slower.
 */
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AuthError } from '../../../../shared/errors.js';
import type { Role } from './types.js';

/** Token lifetime in seconds, also the login response's `expiresIn`. */
export const TOKEN_LIFETIME_SECONDS = 86_400;

export interface TokenSubject {
  id: string;
  email: string;
  role: Role;
  /** Epoch seconds: the token's `iat` is at least this (a password change in this second). */
  tokensNotBefore?: number;
}

/** A token `iat` may be ahead of our clock by at most this (replicas' clocks differ a little). */
export const MAX_CLOCK_SKEW_SECONDS = 60;

/** What a verified token says. */
export interface TokenClaims {
  sub: string;
  email: string;
  role: Role;
  jti: string;
  iat: number;
  exp: number;
}

export interface TokenService {
  sign(user: TokenSubject): string;
  /** The claims of a valid token; otherwise a 401 AuthError (`Token expired` or `Invalid token`). */
  verify(token: string): TokenClaims;
}

export function createTokenService(options: { secret: string; issuer: string }): TokenService {
  const key: KeyObject = createSecretKey(Buffer.from(options.secret, 'utf8'));
  const { issuer } = options;
  return {
    sign(user) {
      // Normally now; after a password change within this second, that second's end, so the
      // new token is not mistaken for one issued before the change (bearer.ts).
      const iat = Math.max(Math.floor(Date.now() / 1000), user.tokensNotBefore ?? 0);
      return jwt.sign({ email: user.email, role: user.role, iat }, key, {
        algorithm: 'HS256',
        // A number means seconds; a string without a unit would mean milliseconds.
        expiresIn: TOKEN_LIFETIME_SECONDS,
        issuer,
        subject: user.id,
        jwtid: randomUUID(),
      });
    },
    verify(token) {
      let payload: string | jwt.JwtPayload;
      try {
        payload = jwt.verify(token, key, { algorithms: ['HS256'], issuer });
      } catch (error) {
        if (error instanceof jwt.TokenExpiredError) throw new AuthError('Token expired');
        throw new AuthError('Invalid token');
      }
      const claims = toClaims(payload);
      if (!claims || !plausibleLifetime(claims, Date.now() / 1000)) throw new AuthError('Invalid token');
      return claims;
    },
  };
}

/** jsonwebtoken accepts a token without `exp` as never expiring: ours always carry every claim. */
function toClaims(payload: string | jwt.JwtPayload): TokenClaims | null {
  if (typeof payload === 'string') return null;
  const { sub, email, role, jti, iat, exp } = payload as Record<string, unknown>;
  if (typeof sub !== 'string' || typeof email !== 'string' || typeof jti !== 'string') return null;
  if (role !== 'admin' && role !== 'user') return null;
  if (typeof iat !== 'number' || typeof exp !== 'number') return null;
  return { sub, email, role, jti, iat, exp };
}

/** We sign `exp = iat + 86400` with `iat` now: a longer life (a leaked key's exp in 2999) or a future `iat` is not ours. */
function plausibleLifetime({ iat, exp }: TokenClaims, nowSeconds: number): boolean {
  return exp > iat && exp - iat <= TOKEN_LIFETIME_SECONDS && iat <= nowSeconds + MAX_CLOCK_SKEW_SECONDS;
}
