// Stories planted in the post stream (issue 47): every few hours one event (a hack, a listing, an
// unlock, a launch) about one token, and for an hour most posts, by whoever posts them, are about
// it, each worded its own way. Deterministic in (seed, time), like every other post.

import { hash, pick, rngFor, type Rng } from './random.js';
import { TOKENS } from './tokens.js';
import { HOUR_MS } from '../../../shared/durations.js';

/** One event in each span of this length, starting at a time within it fixed by the seed. */
export const EVENT_EVERY_MS = 6 * HOUR_MS;
const EVENT_LASTS_MS = HOUR_MS;
/** The share of the event hour's posts that are about it. */
const EVENT_SHARE = 0.8;

type Kind = 'hack' | 'listing' | 'unlock' | 'launch';
const KINDS: readonly Kind[] = ['hack', 'listing', 'unlock', 'launch'];

// `{T}` is the token's cashtag, `N` its name, `#` a number.
const TEXTS: Readonly<Record<Kind, readonly string[]>> = {
  hack: [
    '{T} bridge exploit: drained for {#}M, the team paused deposits',
    'the {N} bridge got drained, exploit confirmed, {#}M gone. {T}',
    '{T} exploit on the bridge, attacker drained {#}M to a mixer',
    '{N} bridge drained overnight ({T}). Exploit still being traced',
    'huge exploit: {T} bridge drained, stay away until the postmortem',
    'confirmed bridge exploit for {T}, {#}M drained so far',
  ],
  listing: [
    '{T} listing on Coinbase confirmed, trading opens at {#}:00 UTC',
    'Coinbase listing for {N} ({T}) just announced',
    'finally a Coinbase listing: {T} spot trading opens today',
    '{T} gets the Coinbase listing, deposits are open',
    '{N} on Coinbase! listing confirmed for {T}, volume incoming',
    'Coinbase listing {T} today, orderbook opens in {#} hours',
  ],
  unlock: [
    '{T} token unlock tomorrow: {#}M tokens hit the market',
    'big {N} unlock coming, {#}% of supply unlocks for investors. {T}',
    '{T} unlock schedule: {#} million tokens unlock this week',
    'careful with {T}, the investor unlock releases {#}M tokens',
    '{N} unlock: {#}% supply, team and investors. {T}',
    'token unlock for {T} lands tomorrow, {#} million tokens',
  ],
  launch: [
    '{T} mainnet launch is live, staking opens in {#} days',
    '{N} mainnet launch today! {T} bridges are open',
    'the {T} mainnet launch went smoothly, {#} validators live',
    'mainnet launch for {N} ({T}) confirmed, airdrop claims open',
    '{T} mainnet is live, launch day volume up {#}%',
    '{N} launch: mainnet live, {T} explorers are up',
  ],
};

export interface PlantedText {
  text: string;
  token: string;
}

/** The event that runs at `time`, if one does: its kind and token. */
function eventAt(seed: number, time: number): { kind: Kind; token: string } | undefined {
  const span = Math.floor(time / EVENT_EVERY_MS);
  const start = span * EVENT_EVERY_MS + (hash(seed, 'story-start', span) % (EVENT_EVERY_MS - EVENT_LASTS_MS));
  if (time < start || time >= start + EVENT_LASTS_MS) return undefined;
  const token = TOKENS[hash(seed, 'story-token', span) % TOKENS.length];
  return token && { kind: KINDS[hash(seed, 'story-kind', span) % KINDS.length] as Kind, token: token.symbol };
}

/** A post at `time` about the event running then, or undefined (most posts, and some during an event). */
export function plantedText(seed: number, time: number, rng: Rng = rngFor(seed, 'story-post', time)): PlantedText | undefined {
  const event = eventAt(seed, time);
  if (!event || rng() >= EVENT_SHARE) return undefined;
  const name = TOKENS.find((token) => token.symbol === event.token)?.name ?? event.token;
  const text = pick(rng, TEXTS[event.kind])
    .replace('{T}', `$${event.token}`)
    .replace('{N}', name)
    .replace('{#}', String(2 + Math.floor(rng() * 90)));
  return { text, token: event.token };
}
