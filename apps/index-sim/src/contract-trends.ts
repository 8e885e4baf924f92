// Trending contract addresses. Like posts, contracts live in absolute time slots (one new
// contract every 2.4 h, the newest 30 are listed), so the list rotates as the clock advances.
// Each contract's buzz rises after it is first seen, peaks after a few hours, then fades.

import { base58Encode } from './base58.js';
import { type Rng, clamp, normal, rngFor, unit } from './random.js';
import { MINUTE_MS } from '../../../shared/durations.js';
import { WINDOW_MS } from './window.js';

const CONTRACT_COUNT = 30;
const SLOT_MS = WINDOW_MS / CONTRACT_COUNT;

export type Chain = 'ethereum' | 'base' | 'bsc' | 'solana';
// A fixed rotation: any 30 consecutive slots hold every chain, Solana most.
const CHAIN_ROTATION: readonly Chain[] = [
  'solana',
  'ethereum',
  'solana',
  'base',
  'ethereum',
  'solana',
  'bsc',
  'base',
  'solana',
  'ethereum',
];

export interface WireContract {
  readonly address: string;
  readonly chain: Chain;
  readonly mentions: number;
  readonly smart_mentions: number;
  readonly first_seen_at: string;
}

function randomBytes(rng: Rng, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(rng() * 256);
  return bytes;
}

function addressFor(rng: Rng, chain: Chain): string {
  if (chain !== 'solana') return '0x' + Buffer.from(randomBytes(rng, 20)).toString('hex');
  const key = randomBytes(rng, 32);
  // A non-zero first byte keeps the base58 form at 43-44 characters, like real mint addresses.
  key[0] = 1 + Math.floor(rng() * 255);
  return base58Encode(key);
}

function firstSeen(seed: number, slot: number): number {
  const at = slot * SLOT_MS + Math.floor(unit(seed, 'contract-seen', slot) * SLOT_MS * 0.9);
  return at - (at % 1000); // whole seconds, as the index reports them
}

function contractAt(seed: number, slot: number, now: number): WireContract {
  const rng = rngFor(seed, 'contract', slot);
  const chain = CHAIN_ROTATION[((slot % CHAIN_ROTATION.length) + CHAIN_ROTATION.length) % CHAIN_ROTATION.length] ?? 'ethereum';
  const address = addressFor(rng, chain);
  const peak = clamp(Math.exp(Math.log(180) + 0.8 * normal(rng)), 20, 1_500);
  const riseHours = 2 + rng() * 18;
  const smartShare = 0.1 + rng() * 0.35;
  const seen = firstSeen(seed, slot);
  // Age sampled per minute: figures change while the clock moves, yet repeat within a minute.
  const ageHours = Math.floor((now - seen) / MINUTE_MS) / 60;
  const x = ageHours / riseHours;
  const mentions = Math.round(4 + peak * x * Math.exp(1 - x));
  return {
    address,
    chain,
    mentions,
    smart_mentions: Math.round(mentions * smartShare),
    first_seen_at: new Date(seen).toISOString(),
  };
}

/** The 30 newest contracts first seen at or before now, ranked by smart mentions. */
export function trendingContracts(seed: number, now: number): WireContract[] {
  const rows: WireContract[] = [];
  for (let slot = Math.floor(now / SLOT_MS); rows.length < CONTRACT_COUNT; slot--) {
    if (firstSeen(seed, slot) <= now) rows.push(contractAt(seed, slot, now));
  }
  return rows.sort((a, b) => b.smart_mentions - a.smart_mentions || b.mentions - a.mentions || a.address.localeCompare(b.address));
}

/** The address of the next contract first seen within `leadMs` after `time`, if any (what an early account names before it trends). */
export function comingContract(seed: number, time: number, leadMs: number): string | undefined {
  for (let slot = Math.floor(time / SLOT_MS); slot <= Math.floor((time + leadMs) / SLOT_MS); slot++) {
    const seen = firstSeen(seed, slot);
    if (time < seen && seen <= time + leadMs) return contractAt(seed, slot, seen).address;
  }
  return undefined;
}
