/**
 * Checks a presented API key against Redis and remembers for VERIFIED_FOR_MS which keys it found
 * good, so the fast path answers a keyed cached read like an anonymous one: bots poll with keys,
 * and Redis round trips made a keyed read cost 3x. The price, a revoked key still served cached
 * reads here that long, is docs/decisions.md#d12's; a refusal forgets the key at once.
 */
import { AuthError } from '../../../../shared/errors.js';
import { boundedCache } from '../cache/bounded-cache.js';
import { toInfo, type ApiKeyInfo, type ApiKeyStore } from './api-keys.js';
import { toPublicUser, type PublicUser, type UserStore } from './users.js';

export const INVALID_API_KEY = 'Invalid API key';

/** How long a key found good is served cached reads without asking Redis again. */
export const VERIFIED_FOR_MS = 500;
/** Keys remembered at most (least recently used out first): bounded whatever clients send. */
const MAX_REMEMBERED = 10_000;

/** The caller of a keyed request: the key (public fields only) and the user it acts as. */
export interface ApiKeyPrincipal {
  key: ApiKeyInfo;
  user: PublicUser;
}

export class ApiKeyVerifier {
  /** Key -> its expiry (ms since epoch, Infinity for none), for keys found good in the last VERIFIED_FOR_MS. */
  private readonly verified = boundedCache<string, number>({ max: MAX_REMEMBERED, ttlMs: VERIFIED_FOR_MS });

  constructor(
    private readonly apiKeys: ApiKeyStore,
    private readonly users: UserStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Asks Redis: the key's principal, or 401 when the key is bad or its owner was removed (or removed and added again). */
  async verify(key: string): Promise<ApiKeyPrincipal> {
    const record = await this.apiKeys.use(key);
    const user = record ? await this.users.find(record.email) : null;
    if (!record || !user || user.id !== record.userId) {
      this.verified.delete(key);
      throw new AuthError(INVALID_API_KEY);
    }
    this.verified.set(key, record.expiresAt === null ? Infinity : Date.parse(record.expiresAt));
    return { key: toInfo(record), user: toPublicUser(user) };
  }

  /** True when Redis found this key good within VERIFIED_FOR_MS and it has not expired since. */
  recentlyVerified(key: string): boolean {
    const expiresAt = this.verified.get(key);
    return expiresAt !== undefined && expiresAt > this.now();
  }
}
