/**
 * Login throttling (D4), counted in Redis so every API replica shares it: failures per email
 * and per client address in fixed 15-minute windows. The check runs before any argon2 work,
 * so a throttled client costs one Redis round trip and no hashing.
 */
import type { Redis } from 'ioredis';
import { RateLimitedError } from '../../../../shared/errors.js';
import { keys } from '../../../../shared/keyspace.js';

export const THROTTLE_WINDOW_SECONDS = 15 * 60;
/** Failures allowed per window; the attempt after the last allowed one is answered 429. */
export const MAX_FAILURES_PER_EMAIL = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;

export class LoginThrottle {
  constructor(private readonly redis: Redis) {}

  /**
   * Throws 429 `Too many login attempts` once an email has 10 failures, or an address 50, in
   * the current window; Retry-After is what is left of that window. A refused attempt is not
   * counted itself, so the window ends on time however hard a client keeps knocking.
   */
  async check(email: string, address: string): Promise<void> {
    const results =
      (await this.redis
        .pipeline()
        .get(keys.loginFailuresByEmail(email))
        .ttl(keys.loginFailuresByEmail(email))
        .get(keys.loginFailuresByAddress(address))
        .ttl(keys.loginFailuresByAddress(address))
        .exec()) ?? [];
    const values = results.map(([error, value]) => {
      if (error) throw error;
      return Number(value ?? 0);
    });
    const [emailCount = 0, emailTtl = -2, addressCount = 0, addressTtl = -2] = values;
    const waits: number[] = [];
    if (emailCount >= MAX_FAILURES_PER_EMAIL) waits.push(remaining(emailTtl));
    if (addressCount >= MAX_FAILURES_PER_ADDRESS) waits.push(remaining(addressTtl));
    if (waits.length > 0) throw new RateLimitedError('Too many login attempts', Math.max(...waits));
  }

  /** Counts one failure for both; the first failure of a window starts its clock. */
  async recordFailure(email: string, address: string): Promise<void> {
    const emailKey = keys.loginFailuresByEmail(email);
    const addressKey = keys.loginFailuresByAddress(address);
    const results = await this.redis
      .multi()
      .incr(emailKey)
      .expire(emailKey, THROTTLE_WINDOW_SECONDS, 'NX')
      .incr(addressKey)
      .expire(addressKey, THROTTLE_WINDOW_SECONDS, 'NX')
      .exec();
    const failed = results?.find(([error]) => error)?.[0];
    if (failed) throw failed;
  }

  /** A successful login forgets the email's failures (the address keeps its count). */
  async clear(email: string): Promise<void> {
    await this.redis.del(keys.loginFailuresByEmail(email));
  }
}

/** TTL in seconds; a counter without one (never expected) is treated as a fresh window. */
function remaining(ttl: number): number {
  return ttl > 0 ? ttl : THROTTLE_WINDOW_SECONDS;
}
