// The 300 tracked accounts. Generated once per seed: names, audience, activity and favourite
// tokens. Every post author is drawn from this list, so each author resolves on
// /v1/accounts/:username.

import { type Rng, WeightedPicker, clamp, normal, pick, rngFor, round } from './random.js';
import { TOKENS } from './tokens.js';

export const ACCOUNT_COUNT = 300;
/** Accounts ranked this high count as "smart money" in smart_mentions. */
export const SMART_RANK_CUTOFF = 100;
const USERNAME_PATTERN = /^[A-Za-z0-9_]{1,15}$/;

export interface Account {
  readonly username: string;
  readonly followers: number;
  readonly score: number;
  readonly smartRank: number;
  readonly postsCount: number;
  readonly avgEngagement: number;
  readonly topTokens: readonly string[];
  /** Relative share of the posts this account writes. */
  readonly activity: number;
}

// Always present, whatever the seed, so docs and demos can name an account that exists.
const FIXED_NAMES = ['CryptoKoala', 'degen_sarah', 'OnChainWizard'];

/** The names' parts, in generation order (the seed picks among them by index). */
const words = (list: string) => list.trim().split(/\s+/);
const CAMEL_HEADS = words(`
  Crypto OnChain Degen Alpha Whale Sol Eth Based Moon Chart Macro Defi Meme Giga Satoshi Block Ape
  Liquid Smart Quant Delta Fomo Bag Wagmi Gwei Pump Laser Diamond Night Alt
`);
const CAMEL_TAILS = words(`
  Koala Wizard Hunter Sniper Trader Monk Ninja Chad Owl Fox Wolf Bull Shark Maxi Scout Sage Pilot
  Oracle Capital Labs Research Otter Raccoon Panda Whisper Knight Goblin Frog Cat Dev
`);
const SNAKE_HEADS = words('degen sol eth crypto anon based ser gm wen fren chain alpha onchain macro meme');
const SNAKE_NAMES = words(`
  sarah mike kai nina leo yuki omar ivy max zoe raj lena tom ava felix mia noah jin eli sam dan rosa
  theo lucy
`);

function candidateName(rng: Rng): string {
  const style = rng();
  const digits = String(Math.floor(rng() * 99) + 1);
  if (style < 0.4) return pick(rng, CAMEL_HEADS) + pick(rng, CAMEL_TAILS);
  if (style < 0.65) return `${pick(rng, SNAKE_HEADS)}_${pick(rng, SNAKE_NAMES)}`;
  if (style < 0.8) return pick(rng, CAMEL_HEADS) + pick(rng, CAMEL_TAILS) + digits;
  if (style < 0.9) return `${pick(rng, SNAKE_NAMES)}_${pick(rng, SNAKE_HEADS)}${digits}`;
  return `0x${pick(rng, CAMEL_TAILS)}${pick(rng, ['', '_eth', '_sol', 'Labs'])}`;
}

function uniqueNames(seed: number): string[] {
  const rng = rngFor(seed, 'usernames');
  const names = [...FIXED_NAMES];
  const seen = new Set(names.map((n) => n.toLowerCase()));
  while (names.length < ACCOUNT_COUNT) {
    const name = candidateName(rng);
    if (!USERNAME_PATTERN.test(name) || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

const TOKEN_PICKER = new WeightedPicker(TOKENS, (t) => t.popularity);

function favouriteTokens(rng: Rng): string[] {
  const favourites: string[] = [];
  while (favourites.length < 3) {
    const symbol = TOKEN_PICKER.draw(rng).symbol;
    if (!favourites.includes(symbol)) favourites.push(symbol);
  }
  return favourites;
}

/** Mean engagement of a post by an account: grows with the log of its audience. */
function engagementFor(followers: number, quality: number): number {
  return (Math.log10(followers) - 2) * 9 * (0.6 + quality);
}

export function generateAccounts(seed: number): Account[] {
  const drafts = uniqueNames(seed).map((username) => {
    const rng = rngFor(seed, 'account', username.toLowerCase());
    // Log-normal audience: most accounts have tens of thousands, a few have millions.
    const followers = Math.round(clamp(Math.exp(Math.log(40_000) + 1.25 * normal(rng)), 1_000, 2_000_000));
    const quality = rng();
    const activity = Math.exp(0.8 * normal(rng));
    const reach = clamp((Math.log10(followers) - 3) / 3.3, 0, 1);
    return {
      username,
      followers,
      activity,
      score: round(clamp(100 * (0.55 * reach + 0.45 * quality), 0, 100), 1),
      postsCount: Math.round(clamp(activity * 1_800 * (0.5 + rng()), 40, 60_000)),
      avgEngagement: round(engagementFor(followers, quality), 1),
      topTokens: favouriteTokens(rng),
    };
  });
  // Rank by score; ties keep generation order so ranks are unique and stable.
  const ranked = drafts.map((d, i) => ({ d, i })).sort((a, b) => b.d.score - a.d.score || a.i - b.i);
  const rankOf = new Map(ranked.map((r, index) => [r.d.username, index + 1]));
  return drafts.map((d) =>
    Object.freeze({ ...d, topTokens: Object.freeze(d.topTokens), smartRank: rankOf.get(d.username) ?? ACCOUNT_COUNT }),
  );
}
