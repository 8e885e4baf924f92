/**
 * The API key store: a Redis hash per key under its SHA-256 (the key is never stored), its public
 * id -> hash, and each user's key ids; the writes that must not race are Lua scripts. Nothing is
 * kept in the process (what the API remembers of a key is api-key-verifier.ts's).
 */
import type { Redis } from 'ioredis';
import { keys } from '../../../../shared/keyspace.js';
import { execChecked } from '../../../../shared/redis-results.js';
import { runScript } from '../../../../shared/redis-scripts.js';
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
  /** ISO 8601: refused from then on (`key create --expires`); null for a key that does not expire. */
  expiresAt: string | null;
}

/** One key as `users export` writes it and `users import` reads it back: its stored hash and the SHA-256 it lives under. */
export interface ApiKeyBackup {
  type: 'api-key';
  sha256: string;
  fields: Record<string, string>;
}

/** `lastUsedAt` is rewritten at most this often per key: a polling bot must not make every read a Redis write. */
export const LAST_USE_RESOLUTION_MS = 60_000;
/** Labels: printable, no tab or line break (they are printed in `key list` columns). */
export const MAX_NAME_LENGTH = 64;

const RECORD_FIELDS = ['id', 'userId', 'email', 'name', 'last4', 'createdAt', 'lastUsedAt', 'expiresAt'] as const;

export class ApiKeyStore {
  constructor(
    private readonly redis: Redis,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new key for the user with this (normalised) email, to show once, or null when there is no such user. */
  async create(
    users: UserStore,
    email: string,
    name: string,
    lifetimeMs?: number,
  ): Promise<{ key: string; info: ApiKeyInfo; expiresAt: string | null } | null> {
    const user = await users.find(email);
    if (!user) return null;
    const expiresAt = lifetimeMs === undefined ? null : new Date(this.now() + lifetimeMs).toISOString();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const key = generateApiKey();
      const hash = hashApiKey(key);
      const info: ApiKeyInfo = {
        id: `key_${randomBase62(12)}`,
        name,
        last4: lastFour(key),
        createdAt: new Date(this.now()).toISOString(),
        lastUsedAt: null,
      };
      const created = await runScript(
        this.redis,
        'createApiKey',
        [keys.apiKey(hash), keys.apiKeyId(info.id), keys.userApiKeys(email), keys.user(email)],
        [info.id, hash, user.id, email, name, info.last4, info.createdAt, expiresAt ?? ''],
      );
      if (created === 1) return { key, info, expiresAt };
      if (created === 0) return null;
    }
    throw new Error('could not find an unused key id');
  }

  /** The record of a presented key, noting its use; null when malformed, unknown, revoked or expired (its owner is the verifier's check). */
  async use(key: string): Promise<ApiKeyRecord | null> {
    if (!isWellFormedApiKey(key)) return null;
    const fields = (await runScript(this.redis, 'useApiKey', [keys.apiKey(hashApiKey(key))], [this.now(), LAST_USE_RESOLUTION_MS])) as (
      string | null
    )[];
    const record = toRecord(fields);
    return record && !isExpired(record, this.now()) ? record : null;
  }

  /** The user's keys (expired ones too, with their expiry), oldest first. */
  async list(email: string): Promise<ApiKeyRecord[]> {
    const ids = await this.redis.smembers(keys.userApiKeys(email));
    const records = await Promise.all(ids.map((id) => this.find(id)));
    return records
      .filter((record): record is ApiKeyRecord => record !== null && record.email === email)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  /** Every user's keys as stored, for a backup (`users export`): each with the SHA-256 it lives under. */
  async dump(emails: readonly string[]): Promise<ApiKeyBackup[]> {
    const backups: ApiKeyBackup[] = [];
    for (const email of emails) {
      for (const id of (await this.redis.smembers(keys.userApiKeys(email))).sort()) {
        const sha256 = await this.redis.get(keys.apiKeyId(id));
        if (!sha256) continue;
        const fields = await this.redis.hgetall(keys.apiKey(sha256));
        const record = fromHash(fields);
        if (record && record.id === id && record.email === email) backups.push({ type: 'api-key', sha256, fields });
      }
    }
    return backups;
  }

  /** Writes back one key from `dump()` as it was (the same key authenticates again); false if it is not a key record. */
  async restore(backup: ApiKeyBackup): Promise<boolean> {
    const record = fromHash(backup.fields);
    if (!record || !/^[0-9a-f]{64}$/.test(backup.sha256)) return false;
    const hash = keys.apiKey(backup.sha256);
    await execChecked(
      this.redis
        .multi()
        .del(hash)
        .hset(hash, backup.fields)
        .set(keys.apiKeyId(record.id), backup.sha256)
        .sadd(keys.userApiKeys(record.email), record.id)
        .hdel(keys.revokedApiKeys(), record.id),
    );
    return true;
  }

  /** When each of `ids` was revoked here, for those that were (`users import` checks a backup's keys against it). */
  async revokedAt(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const times = await this.redis.hmget(keys.revokedApiKeys(), ...ids);
    return new Map(ids.flatMap((id, at) => (times[at] ? [[id, times[at]] as [string, string]] : [])));
  }

  /** The key with this public id, or null. */
  async find(id: string): Promise<ApiKeyRecord | null> {
    return (await this.lookup(id))?.record ?? null;
  }

  /** Revokes the key with this public id at once; returns its record, or null when there was none. */
  async revoke(id: string): Promise<ApiKeyRecord | null> {
    const found = await this.lookup(id);
    if (!found) return null;
    const revoked = await runScript(
      this.redis,
      'revokeApiKey',
      [keys.apiKey(found.hash), keys.apiKeyId(id), keys.userApiKeys(found.record?.email ?? ''), keys.revokedApiKeys()],
      [id, new Date().toISOString()],
    );
    return revoked === 1 ? found.record : null;
  }

  /** Revokes every key of the user (`users remove`); returns how many there were. */
  async revokeAll(email: string): Promise<number> {
    const ids = await this.redis.smembers(keys.userApiKeys(email));
    let revoked = 0;
    for (const id of ids) if (await this.revoke(id)) revoked += 1;
    await this.redis.del(keys.userApiKeys(email));
    return revoked;
  }

  /** The SHA-256 the key with this public id lives under, and its record (null when damaged). */
  private async lookup(id: string): Promise<{ hash: string; record: ApiKeyRecord | null } | undefined> {
    const hash = await this.redis.get(keys.apiKeyId(id));
    return hash ? { hash, record: toRecord(await this.redis.hmget(keys.apiKey(hash), ...RECORD_FIELDS)) } : undefined;
  }
}

const fromHash = (hash: Record<string, string>) => toRecord(RECORD_FIELDS.map((field) => hash[field] ?? null));

function toRecord(fields: (string | null)[]): ApiKeyRecord | null {
  const [id, userId, email, name, last4, createdAt, lastUsedAt, expiresAt] = fields;
  if (!id || !userId || !email || name == null || !last4 || !createdAt) return null;
  const lastUsed = lastUsedAt ? Number(lastUsedAt) : NaN;
  return {
    id,
    userId,
    email,
    name,
    last4,
    createdAt,
    lastUsedAt: Number.isFinite(lastUsed) ? new Date(lastUsed).toISOString() : null,
    // An expiry that cannot be read counts as past (NaN || 0): a damaged record must not make a key eternal.
    expiresAt: expiresAt ? new Date(Date.parse(expiresAt) || 0).toISOString() : null,
  };
}

/** True once the key's expiry has passed. */
export function isExpired(record: Pick<ApiKeyRecord, 'expiresAt'>, now: number): boolean {
  return record.expiresAt !== null && Date.parse(record.expiresAt) <= now;
}

export function toInfo({ id, name, last4, createdAt, lastUsedAt }: ApiKeyRecord): ApiKeyInfo {
  return { id, name, last4, createdAt, lastUsedAt };
}
