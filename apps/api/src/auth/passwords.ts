/**
 * Password hashing with argon2id at OWASP's parameters (D5). The work runs on libuv's thread
 * pool, so verifications never block the event loop that serves market reads.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import { createLimiter } from './limiter.js';

/** OWASP's minimum for argon2id: 19 MiB, 2 iterations, 1 lane (~30 ms per verification here). */
export const ARGON2_OPTIONS = Object.freeze({
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
});

/**
 * At most this many argon2 computations at once per process: one core stays free for the
 * event loop, or a burst of logins (4 libuv threads) starves market reads on a small machine.
 */
const MAX_CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);
const limited = createLimiter(MAX_CONCURRENT_HASHES);

export function hashPassword(password: string): Promise<string> {
  return limited(() => argon2.hash(password, ARGON2_OPTIONS));
}

/** False for a wrong password and for a stored digest argon2 cannot read (never throws for those). */
export async function verifyPassword(digest: string, password: string): Promise<boolean> {
  try {
    return await limited(() => argon2.verify(digest, password));
  } catch {
    return false;
  }
}

/** True when the stored digest was made with other parameters or another variant than today's. */
export function needsRehash(digest: string): boolean {
  if (!digest.startsWith('$argon2id$')) return true;
  try {
    return argon2.needsRehash(digest, ARGON2_OPTIONS);
  } catch {
    return true;
  }
}

let dummy: Promise<string> | undefined;

/**
 * A digest of a random password, made once per process. An unknown email is verified against
 * it, so its answer costs the same argon2 work as a wrong password (D4).
 */
export function dummyHash(): Promise<string> {
  if (!dummy) {
    dummy = hashPassword(`dummy-${randomUUID()}`);
    // A failed attempt is forgotten, so the next login tries again.
    dummy.catch(() => {
      dummy = undefined;
    });
  }
  return dummy;
}
