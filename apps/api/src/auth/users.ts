/**
 * The user store (D5): one Redis hash per user at `keys.user(email)`, keyed by the normalised
 * email, plus the set `keys.users()` for listing. Writes that must not race (create, password
 * changes) are small Lua scripts, so they are atomic without WATCH loops.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { keys } from '../../../../shared/keyspace.js';
import type { PublicUser } from '../routes/auth/schema.js';

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

export interface UserRecord {
  /** Random UUID, the token's `sub`; a user removed and added again gets a new one. */
  id: string;
  /** Normalised: trimmed, lower case. */
  email: string;
  role: Role;
  /** argon2id digest in PHC format; never leaves this module's callers in a response. */
  passwordHash: string;
  /** ISO 8601. */
  createdAt: string;
}

/** What responses show of a user: the `User` schema of the document. */
export type { PublicUser };

/** D4: emails are trimmed and compared case-insensitively. */
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

// KEYS: user hash, users set. ARGV: id, email, role, passwordHash, createdAt, overwrite ('1' or '').
// Returns 1 when created, 0 when the user existed (updated only when overwrite is set).
const PUT_USER = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  if ARGV[6] == '1' then redis.call('HSET', KEYS[1], 'role', ARGV[3], 'passwordHash', ARGV[4]) end
  return 0
end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'email', ARGV[2], 'role', ARGV[3], 'passwordHash', ARGV[4], 'createdAt', ARGV[5])
redis.call('SADD', KEYS[2], ARGV[2])
return 1`;

// KEYS: user hash. ARGV: new digest, expected current digest ('' for any).
// Returns 1 when replaced, 0 when the user is gone or its digest changed meanwhile.
const SET_HASH = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[2] ~= '' and redis.call('HGET', KEYS[1], 'passwordHash') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'passwordHash', ARGV[1])
return 1`;

export class UserStore {
  constructor(private readonly redis: Redis) {}

  /** The user with this (already normalised) email, or null. */
  async find(email: string): Promise<UserRecord | null> {
    return parseRecord(await this.redis.hgetall(keys.user(email)));
  }

  /** Adds a user; null when the email is taken. */
  async create(input: { email: string; role: Role; passwordHash: string }): Promise<UserRecord | null> {
    const record: UserRecord = { id: randomUUID(), createdAt: new Date().toISOString(), ...input };
    return (await this.put(record, false)) ? record : null;
  }

  /** Adds the user, or overwrites the role and password of the existing one (the demo seed). */
  async createOrReplace(input: { email: string; role: Role; passwordHash: string }): Promise<void> {
    await this.put({ id: randomUUID(), createdAt: new Date().toISOString(), ...input }, true);
  }

  /**
   * Replaces the password digest; false when the user does not exist. With `expected`, only if
   * the stored digest is still that one (a rehash on login must not undo a concurrent passwd).
   */
  async setPasswordHash(email: string, passwordHash: string, expected?: string): Promise<boolean> {
    return (await this.redis.eval(SET_HASH, 1, keys.user(email), passwordHash, expected ?? '')) === 1;
  }

  /** False when there was no such user. */
  async remove(email: string): Promise<boolean> {
    const results = await this.redis.multi().del(keys.user(email)).srem(keys.users(), email).exec();
    return results?.[0]?.[1] === 1;
  }

  /** Every user, by email, without digests. */
  async list(): Promise<PublicUser[]> {
    const emails = (await this.redis.smembers(keys.users())).sort();
    if (emails.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const email of emails) pipeline.hgetall(keys.user(email));
    const results = (await pipeline.exec()) ?? [];
    return results
      .map(([error, hash]) => {
        if (error) throw error;
        return parseRecord(hash as Record<string, string>);
      })
      .filter((user): user is UserRecord => user !== null)
      .map(toPublicUser);
  }

  private async put(record: UserRecord, overwrite: boolean): Promise<boolean> {
    const { id, email, role, passwordHash, createdAt } = record;
    const created = await this.redis.eval(PUT_USER, 2, keys.user(email), keys.users(), id, email, role, passwordHash, createdAt, overwrite ? '1' : '');
    return created === 1;
  }
}

/** A hash with a missing or unknown field is treated as no user: it cannot log in. */
function parseRecord(hash: Record<string, string> | null | undefined): UserRecord | null {
  if (!hash) return null;
  const { id, email, role, passwordHash, createdAt } = hash;
  if (!id || !email || !passwordHash || !createdAt || !role || !isRole(role)) return null;
  return { id, email, role, passwordHash, createdAt };
}
