/**
 * What an API key looks like: `ms_live_` + 32 random base62 characters (190 bits) + a 6-character
 * base62 CRC32 of everything before it. The prefix lets secret scanners (and people) recognise a
 * leaked key; base62 keeps it one word for a double-click; the checksum lets a scanner, and this
 * API, tell a real key from a typo or a made-up string without a database. A key is long and
 * random, so one SHA-256 is enough to store it (no salt, no slow hash: nothing to brute-force).
 */
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const API_KEY_PREFIX = 'ms_live_';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

/** `length` uniformly random base62 characters (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function base62(value: number, width: number): string {
  let out = '';
  for (let rest = value; out.length < width; rest = Math.floor(rest / 62)) out = ALPHABET[rest % 62] + out;
  return out;
}

function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

/** A new key. Shown once to its owner; only its hash is stored. */
export function generateApiKey(): string {
  const body = API_KEY_PREFIX + randomBase62(RANDOM_LENGTH);
  return body + checksum(body);
}

/** True when `value` has the key's shape and a valid checksum (it may still be unknown or revoked). */
export function isWellFormedApiKey(value: string): boolean {
  if (!KEY_SHAPE.test(value)) return false;
  const cut = value.length - CHECKSUM_LENGTH;
  return checksum(value.slice(0, cut)) === value.slice(cut);
}

/** What a presented credential is: our key prefix, well-formed or not, means "an API key". */
export function looksLikeApiKey(value: string): boolean {
  return value.startsWith('ms_');
}

/** The stored form: SHA-256, hex. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The last four characters, shown in `key list` so an owner can tell keys apart. */
export function lastFour(key: string): string {
  return key.slice(-4);
}
