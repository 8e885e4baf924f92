/**
 * Login throttling (docs/decisions.md#d4), in Redis so every replica shares it: failures per email
 * and per client address in fixed 15-minute windows. An attempt reserves its failure before any
 * argon2 work, atomically in one script (a check then a separate record let 12 concurrent wrong
 * passwords through a limit of 10); a success gives it back. The email's counter is named by a
 * digest: a 16 KiB email once left a 16 KiB key per failed login.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimitedError } from '../../../../shared/errors.js';
import { keys } from '../../../../shared/keyspace.js';
import { runScript } from '../../../../shared/redis-scripts.js';
import { clientGroup, DEFAULT_IPV6_PREFIX } from '../http/client-address.js';

export const THROTTLE_WINDOW_SECONDS = 15 * 60;
/** Failures allowed per window; the attempt after the last allowed one is answered 429. */
export const MAX_FAILURES_PER_EMAIL = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;

/** The counters one attempt reserved. */
export interface Reservation {
  readonly keys: readonly string[];
}

/** The failure counter of one (normalised) email: 128 bits of its SHA-256. */
export function emailFailuresKey(email: string): string {
  return keys.loginFailuresByEmail(createHash('sha256').update(email).digest('hex').slice(0, 32));
}

export function addressFailuresKey(address: string, ipv6Prefix: number = DEFAULT_IPV6_PREFIX): string {
  return keys.loginFailuresByAddress(clientGroup(address, ipv6Prefix));
}

export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly ipv6Prefix: number = DEFAULT_IPV6_PREFIX,
  ) {}

  /** Counts this attempt as a failure in advance, or throws 429 (Retry-After: the window's rest); `address` undefined: the email only. */
  async reserve(email: string, address: string | undefined): Promise<Reservation> {
    const counters = [emailFailuresKey(email)];
    const limits = [MAX_FAILURES_PER_EMAIL];
    if (address !== undefined) {
      counters.push(addressFailuresKey(address, this.ipv6Prefix));
      limits.push(MAX_FAILURES_PER_ADDRESS);
    }
    const wait = Number(await runScript(this.redis, 'reserveLoginAttempt', counters, [THROTTLE_WINDOW_SECONDS, ...limits]));
    if (wait > 0) throw new RateLimitedError('Too many login attempts', wait);
    return { keys: counters };
  }

  /** The attempt succeeded: the email starts over, the address gets its count back. */
  async succeeded(reservation: Reservation): Promise<void> {
    await runScript(this.redis, 'releaseLoginAttempt', reservation.keys, ['1']);
  }

  /** The attempt failed for a reason of ours (argon2 overloaded, Redis): it was no failure of the client's. */
  async cancel(reservation: Reservation): Promise<void> {
    await runScript(this.redis, 'releaseLoginAttempt', reservation.keys, ['']);
  }
}
