/**
 * The API key store. A key's record is a Redis hash under the SHA-256 of the key (the key itself
 * is never stored), plus its public id -> hash, and the set of each user's key ids. Nothing is
 * cached in a process: every keyed request reads Redis, so a revoked key is refused by every
 * replica from the next request on.
 */
import type { Redis } from 'ioredis';
import { keys } from '../../../../shared/keyspace.js';
import { generateApiKey, hashApiKey, isWellFormedApiKey, lastFour, randomBase62 } from './api-key-format.js';
import type { UserStore } from './users.js';

/** What `key list` and `/api/auth/me` may show of a key: never the key or its hash. */
export interface ApiKeyInfo {
  /** Public id (`key_` + 12 base62), what `key revoke` takes. */
  id: string;
  /** The owner's label, '' when none was given. */
  name: string;
  last4: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601, to within LAST_USE_RESOLUTION_MS; null when never used. */
  lastUsedAt: string | null;
}

export interface ApiKeyRecord extends ApiKeyInfo {
  /** The owner's user id when the key was made: a user removed and added again does not inherit it. */
  userId: string;
  /** The owner's normalised email. */
  email: string;
}

/** `lastUsedAt` is rewritten at most this often per key: a polling bot must not make every read a Redis write. */
export const LAST_USE_RESOLUTION_MS = 60_000;
/** Labels: printable, no tab or line break (they are printed in `key list` columns). */
export const MAX_NAME_LENGTH = 64;

const RECORD_FIELDS = ['id', 'userId', 'email', 'name', 'last4', 'createdAt', 'lastUsedAt'] as const;

// KEYS: record, id index, user's key set, user hash. ARGV: id, hash, userId, email, name, last4, createdAt.
// Returns 1 when created, 0 when the user is gone (or is another user now), -1 when the id is taken.
const CREATE = `
if redis.call('HGET', KEYS[4], 'id') ~= ARGV[3] then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'userId', ARGV[3], 'email', ARGV[4], 'name', ARGV[5], 'last4', ARGV[6], 'createdAt', ARGV[7])
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[1])
return 1`;

// KEYS: record. ARGV: now (epoch ms), resolution (ms). Returns the record's fields in
// RECORD_FIELDS order (id false when there is no such key), and notes the use.
const USE = `
local fields = redis.call('HMGET', KEYS[1], 'id', 'userId', 'email', 'name', 'last4', 'createdAt', 'lastUsedAt')
if not fields[1] then return fields end
local last = tonumber(fields[7] or '0') or 0
if tonumber(ARGV[1]) - last >= tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], 'lastUsedAt', ARGV[1]) end
return fields`;

// KEYS: record, id index, user's key set. ARGV: id. Returns 1 when revoked, 0 when the record is not that key's.
const REVOKE = `
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then
  redis.call('DEL', KEYS[2])
  redis.call('SREM', KEYS[3], ARGV[1])
  return 0
end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
return 1`;

export class ApiKeyStore {
  constructor(
    private readonly redis: Redis,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A new key for the user with this (normalised) email: returns the key (to show once) and its
   * public record, or null when there is no such user.
   */
  async create(users: UserStore, email: string, name: string): Promise<{ key: string; info: ApiKeyInfo } | null> {
    const user = await users.find(email);
    if (!user) return null;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const key = generateApiKey();
      const hash = hashApiKey(key);
      const info: ApiKeyInfo = { id: `key_${randomBase62(12)}`, name, last4: lastFour(key), createdAt: new Date(this.now()).toISOString(), lastUsedAt: null };
      const created = await this.redis.eval(
        CREATE, 4, keys.apiKey(hash), keys.apiKeyId(info.id), keys.userApiKeys(email), keys.user(email),
        info.id, hash, user.id, email, name, info.last4, info.createdAt,
      );
      if (created === 1) return { key, info };
      if (created === 0) return null;
    }
    throw new Error('could not find an unused key id');
  }

  /**
   * The record of a presented key, noting its use; null when the key is malformed, unknown or
   * revoked. (Whether its owner still exists is the caller's check: see api-key-auth.ts.)
   */
  async use(key: string): Promise<ApiKeyRecord | null> {
    if (!isWellFormedApiKey(key)) return null;
    const fields = (await this.redis.eval(USE, 1, keys.apiKey(hashApiKey(key)), this.now(), LAST_USE_RESOLUTION_MS)) as (string | null)[];
    return toRecord(fields);
  }

  /** The user's keys, oldest first. */
  async list(email: string): Promise<ApiKeyInfo[]> {
    const ids = await this.redis.smembers(keys.userApiKeys(email));
    const records = await Promise.all(ids.map((id) => this.find(id)));
    return records
      .filter((record): record is ApiKeyRecord => record !== null && record.email === email)
      .map(toInfo)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  /** The key with this public id, or null. */
  async find(id: string): Promise<ApiKeyRecord | null> {
    const hash = await this.redis.get(keys.apiKeyId(id));
    if (!hash) return null;
    return toRecord(await this.redis.hmget(keys.apiKey(hash), ...RECORD_FIELDS));
  }

  /** Revokes the key with this public id at once; returns its record, or null when there was none. */
  async revoke(id: string): Promise<ApiKeyRecord | null> {
    const hash = await this.redis.get(keys.apiKeyId(id));
    if (!hash) return null;
    const record = toRecord(await this.redis.hmget(keys.apiKey(hash), ...RECORD_FIELDS));
    const email = record?.email ?? '';
    const revoked = await this.redis.eval(REVOKE, 3, keys.apiKey(hash), keys.apiKeyId(id), keys.userApiKeys(email), id);
    return revoked === 1 ? record : null;
  }

  /** Revokes every key of the user (`users remove`); returns how many there were. */
  async revokeAll(email: string): Promise<number> {
    const ids = await this.redis.smembers(keys.userApiKeys(email));
    let revoked = 0;
    for (const id of ids) if (await this.revoke(id)) revoked += 1;
    await this.redis.del(keys.userApiKeys(email));
    return revoked;
  }
}

function toRecord(fields: (string | null)[]): ApiKeyRecord | null {
  const [id, userId, email, name, last4, createdAt, lastUsedAt] = fields;
  if (!id || !userId || !email || name == null || !last4 || !createdAt) return null;
  const lastUsed = lastUsedAt ? Number(lastUsedAt) : NaN;
  return { id, userId, email, name, last4, createdAt, lastUsedAt: Number.isFinite(lastUsed) ? new Date(lastUsed).toISOString() : null };
}

export function toInfo({ id, name, last4, createdAt, lastUsedAt }: ApiKeyRecord): ApiKeyInfo {
  return { id, name, last4, createdAt, lastUsedAt };
}
