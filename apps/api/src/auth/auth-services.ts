/** Login, and what the protected routes need, built once per process. */
import type { Redis } from 'ioredis';
import type { Config } from '../../../../shared/config.js';
import { AuthError, RateLimitedError } from '../../../../shared/errors.js';
import type { Logger } from '../../../../shared/logger.js';
import { clientGroup } from '../http/client-address.js';
import { needsRehash, PasswordHasher } from './passwords.js';
import type { LoginResponse } from './types.js';
import { LoginThrottle } from './throttle.js';
import { createTokenService, TOKEN_LIFETIME_SECONDS, type TokenService } from './tokens.js';
import { isPlausibleEmail, normaliseEmail, UserStore, type UserRecord } from './users.js';

export interface AuthServices {
  users: UserStore;
  tokens: TokenService;
  throttle: LoginThrottle;
  /** argon2 for logins and rehashes; deps.ts closes it. */
  passwords: PasswordHasher;
  /**
   * docs/decisions.md#d4. A client with LOGIN_MAX_IN_FLIGHT_PER_ADDRESS logins being checked is
   * answered 429 at once: a flood from one address cannot fill the argon2 queue.
   */
  login(email: string, password: string, clientAddress: string): Promise<LoginResponse>;
}

export function createAuthServices(
  config: Pick<Config, 'jwtSecret' | 'jwtIssuer' | 'trustProxy' | 'ipv6SubnetPrefix' | 'loginMaxInFlightPerAddress'>,
  redis: Redis,
  logger: Logger,
): AuthServices {
  const users = new UserStore(redis);
  const tokens = createTokenService({ secret: config.jwtSecret, issuer: config.jwtIssuer });
  const throttle = new LoginThrottle(redis, config.ipv6SubnetPrefix);
  const passwords = new PasswordHasher();
  const inFlight = new Map<string, number>();
  // Made now, so the first unknown email does not pay for it (and stand out by its timing).
  passwords.dummyHash().catch((error: unknown) => logger.error({ err: error }, 'cannot make the dummy password hash'));

  /** Rehashing is a bonus: if it fails the login still succeeds, with the old digest kept. */
  async function upgradeHash(email: string, oldHash: string, password: string): Promise<void> {
    try {
      await users.setPasswordHash(email, await passwords.hash(password), oldHash);
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'password rehash failed');
    }
  }

  return {
    users,
    tokens,
    throttle,
    passwords,
    async login(rawEmail, password, clientAddress) {
      const email = normaliseEmail(rawEmail);
      // No user can have it (`users add` takes plausible addresses only): refused as any wrong
      // credential, before argon2 and before Redis, so a stream of 16 KiB "emails" costs nothing.
      if (!isPlausibleEmail(email)) throw new AuthError('Invalid credentials');
      const group = clientGroup(clientAddress, config.ipv6SubnetPrefix);
      const held = inFlight.get(group) ?? 0;
      if (held >= config.loginMaxInFlightPerAddress) throw new RateLimitedError('Too many login attempts', 1);
      inFlight.set(group, held + 1);
      try {
        return await check(email, password, clientAddress);
      } finally {
        const left = (inFlight.get(group) ?? 1) - 1;
        if (left === 0) inFlight.delete(group);
        else inFlight.set(group, left);
      }
    },
  };

  async function check(email: string, password: string, clientAddress: string): Promise<LoginResponse> {
    // With TRUST_PROXY=false the address may be a proxy's, shared by every client behind it:
    // counting it would let anyone lock out all logins. The email's limit always applies.
    const reservation = await throttle.reserve(email, config.trustProxy ? clientAddress : undefined);
    let user: UserRecord | null;
    let valid: boolean;
    try {
      user = await users.find(email);
      valid = await passwords.verify(user ? user.passwordHash : await passwords.dummyHash(), password);
    } catch (error) {
      // Not the client's failure (argon2 overloaded or crashed, Redis): give the attempt back.
      await throttle.cancel(reservation).catch(() => {});
      throw error;
    }
    if (!user || !valid) throw new AuthError('Invalid credentials');
    await throttle.succeeded(reservation);
    if (needsRehash(user.passwordHash)) await upgradeHash(email, user.passwordHash, password);
    // `satisfies`: a field added here that the document's LoginResponse lacks fails the type check.
    return { token: tokens.sign(user), expiresIn: TOKEN_LIFETIME_SECONDS } satisfies LoginResponse;
  }
}
