/**
 * Password hashing with argon2id (docs/decisions.md#d5), in a helper process at the lowest CPU
 * priority and rationed while the API is busy (read-priority.ts): logins take what reads leave.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import { Argon2Helper } from './argon2-client.js';
import { UnavailableError } from '../../../../shared/errors.js';
import { createLimiter } from './limiter.js';
import { ReadPriority } from './read-priority.js';

/** OWASP's minimum for argon2id: 19 MiB, 2 iterations, 1 lane (~30 ms per verification here). */
export const ARGON2_OPTIONS = Object.freeze({
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
});

/** argon2 computations at once (19 MiB each): one core stays free for the event loop whatever the OS does with priorities. */
const MAX_CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);
/** Logins waiting for argon2 beyond this are refused (503) rather than queued for seconds. */
const MAX_WAITING_HASHES = 16;
/** The argon2 work of one API process: its helper, the limit on computations, their rationing, the dummy digest. */
export class PasswordHasher {
  private readonly helper = new Argon2Helper();
  private readonly priority = new ReadPriority();
  private readonly limited = createLimiter(MAX_CONCURRENT_HASHES, {
    pauseAfter: (tookMs) => this.priority.restAfterHash(tookMs),
    maxWaiting: MAX_WAITING_HASHES,
    refuse: () => new UnavailableError('Service unavailable', 1),
  });
  private dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return this.limited(() => this.helper.hash(password, ARGON2_OPTIONS));
  }

  /** False for a wrong password or an unreadable digest; throws when the helper failed (a 500, never a wrong password). */
  verify(digest: string, password: string): Promise<boolean> {
    return this.limited(() => this.helper.verify(digest, password));
  }

  /** A digest of a random password, made once: an unknown email costs the same argon2 work as a wrong password (docs/decisions.md#d4). */
  dummyHash(): Promise<string> {
    if (!this.dummy) {
      const dummy = this.hash(`dummy-${randomUUID()}`);
      this.dummy = dummy;
      // A failed attempt is forgotten, so the next login tries again.
      dummy.catch(() => {
        if (this.dummy === dummy) this.dummy = undefined;
      });
    }
    return this.dummy;
  }

  /** Stops the helper process and the sampling (a later call starts them again). */
  close(): void {
    this.helper.stop();
    this.priority.stop();
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

/** One digest, for the scripts and tools that hash outside the API: a hasher of its own, closed after. */
export async function hashPassword(password: string): Promise<string> {
  const hasher = new PasswordHasher();
  try {
    return await hasher.hash(password);
  } finally {
    hasher.close();
  }
}
