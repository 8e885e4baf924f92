/**
 * The user store (docs/decisions.md#d5): a Redis hash per user, keyed by the normalised email, and
 * the set of emails. Writes that must not race are Lua scripts (shared/lua/), atomic without WATCH loops.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { keys } from '../../../../shared/keyspace.js';
import { execChecked } from '../../../../shared/redis-results.js';
import { runScript } from '../../../../shared/redis-scripts.js';
import { ROLES, type PublicUser, type Role } from './types.js';

export interface UserRecord {
  /** Random UUID, the token's `sub`: a user removed and added again gets a new one. */
  id: string;
  /** Normalised: trimmed, lower case. */
  email: string;
  role: Role;
  /** argon2id, PHC format. */
  passwordHash: string;
  /** ISO 8601. */
  createdAt: string;
  /** Tokens issued (`iat`, epoch seconds) before this are refused: set by a password change; 0 before any. */
  tokensNotBefore: number;
}

type NewUser = Pick<UserRecord, 'email' | 'role' | 'passwordHash'>;

export type { PublicUser };

/** docs/decisions.md#d4: emails are trimmed and compared case-insensitively. */
export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/** A plausible address (something@domain.tld, no spaces, at most 254 characters); not a full RFC 5322 check. */
export function isPlausibleEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function toPublicUser({ id, email, role, createdAt }: UserRecord): PublicUser {
  return { id, email, role, createdAt };
}

export class UserStore {
  constructor(private readonly redis: Redis) {}

  /** The user with this (already normalised) email, or null. */
  async find(email: string): Promise<UserRecord | null> {
    return parseRecord(await this.redis.hgetall(keys.user(email)));
  }

  /** Adds a user; null when the email is taken. */
  async create(input: NewUser): Promise<UserRecord | null> {
    return this.put(input, false);
  }

  /** Adds the user, or overwrites the role and password of the existing one (the demo seed). */
  async createOrReplace(input: NewUser): Promise<void> {
    await this.put(input, true);
  }

  /**
   * Replaces the password digest; false when the user does not exist. With `expected`, only if
   * the stored digest is still that one (a rehash on login must not undo a concurrent passwd).
   */
  async setPasswordHash(email: string, passwordHash: string, expected?: string): Promise<boolean> {
    return (await runScript(this.redis, 'setPasswordHash', [keys.user(email)], [passwordHash, expected ?? '', ''])) === 1;
  }

  /**
   * A new password chosen by its owner (`users passwd`), revoking in the same script every token
   * issued until now: rounded up to the next second (`iat` is in seconds), so one issued earlier in
   * this second is refused too; login signs no earlier (tokens.ts). False when there is no such user.
   */
  async changePassword(email: string, passwordHash: string, now = Date.now()): Promise<boolean> {
    const notBefore = String(Math.ceil(now / 1000));
    return (await runScript(this.redis, 'setPasswordHash', [keys.user(email)], [passwordHash, '', notBefore])) === 1;
  }

  /** False when there was no such user. */
  async remove(email: string): Promise<boolean> {
    const [deleted] = await execChecked(this.redis.multi().del(keys.user(email)).srem(keys.users(), email));
    return deleted === 1;
  }

  /** Every user, by email, without digests. */
  async list(): Promise<PublicUser[]> {
    return (await this.dump()).map((hash) => toPublicUser(parseRecord(hash)!));
  }

  /** Every user's stored hash, digests included, field by field, for a backup (`users export`). */
  async dump(): Promise<Record<string, string>[]> {
    const emails = (await this.redis.smembers(keys.users())).sort();
    if (emails.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const email of emails) pipeline.hgetall(keys.user(email));
    return ((await execChecked(pipeline)) as Record<string, string>[]).filter((hash) => parseRecord(hash) !== null);
  }

  /** Writes back one hash from `dump()` as it was (same id, so its tokens stay valid); false if it is not a user record. */
  async restore(hash: Record<string, string>): Promise<boolean> {
    const record = parseRecord(hash);
    if (!record) return false;
    await execChecked(this.redis.multi().del(keys.user(record.email)).hset(keys.user(record.email), hash).sadd(keys.users(), record.email));
    return true;
  }

  /** Writes a new record; null when the email was taken and `overwrite` is false. */
  private async put(input: NewUser, overwrite: boolean): Promise<UserRecord | null> {
    const record: UserRecord = { id: randomUUID(), createdAt: new Date().toISOString(), tokensNotBefore: 0, ...input };
    const { id, email, role, passwordHash, createdAt } = record;
    const created = await runScript(
      this.redis,
      'putUser',
      [keys.user(email), keys.users()],
      [id, email, role, passwordHash, createdAt, overwrite ? '1' : ''],
    );
    return created === 1 ? record : null;
  }
}

/** A hash with a missing or unknown field is treated as no user: it cannot log in. */
function parseRecord(hash: Record<string, string> | null | undefined): UserRecord | null {
  if (!hash) return null;
  const { id, email, role, passwordHash, createdAt } = hash;
  if (!id || !email || !passwordHash || !createdAt || !role || !isRole(role)) return null;
  // Absent on users whose password never changed; unreadable counts as "revoke everything".
  const notBefore = hash.tokensNotBefore === undefined ? 0 : Number(hash.tokensNotBefore);
  const tokensNotBefore = Number.isFinite(notBefore) ? notBefore : Number.MAX_SAFE_INTEGER;
  return { id, email, role, passwordHash, createdAt, tokensNotBefore };
}
