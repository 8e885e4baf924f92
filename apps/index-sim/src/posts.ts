// The post stream. Time is cut into fixed slots (3 days / postCount long, counted from the Unix
// epoch); slot k holds exactly one post whose id and content depend only on (seed, k). The
// window is the newest postCount slots before the simulated now, so advancing the clock adds
// posts at the top and drops the oldest, while a post that stays in the window never changes.

import type { Account } from './accounts.js';
import { WeightedPicker, clamp, hash, normal, pick, rngFor, round, unit } from './random.js';
import type { Rng } from './random.js';
import { type Mood, renderText } from './texts.js';
import { TOKENS, type TokenInfo, tokenBySymbol } from './tokens.js';
import { EARLY_ACTIVITY, EARLY_LEAD_MS, earlyAccounts, surgeToken } from './surges.js';
import { plantedText } from './planted-stories.js';
import { comingContract } from './contract-trends.js';
import { WINDOW_MS } from './window.js';

export { WINDOW_MS };

export interface WirePost {
  readonly id: string;
  readonly text: string;
  readonly author: { readonly username: string; readonly followers: number };
  readonly created_at: string;
  readonly tokens: readonly string[];
  readonly engagement: number;
}

/** A generated post plus what the trending figures need that the wire form does not carry. */
export interface StoredPost {
  readonly wire: WirePost;
  readonly smartAuthor: boolean;
}

function moodFor(rng: Rng, token: TokenInfo): Mood {
  const bullish = clamp(0.33 + 0.5 * token.bias, 0.05, 0.85);
  const bearish = clamp(0.33 - 0.5 * token.bias, 0.05, 0.85);
  const r = rng();
  if (r < bullish) return 'bullish';
  if (r < bullish + bearish) return 'bearish';
  return 'neutral';
}

// An extra cashtag shares the post's mood, so it is drawn from tokens that suit that mood.
const byPopularity = (t: TokenInfo) => t.popularity;
const COMPATIBLE: Readonly<Record<Mood, WeightedPicker<TokenInfo>>> = {
  bullish: new WeightedPicker(
    TOKENS.filter((t) => t.bias > -0.3),
    byPopularity,
  ),
  bearish: new WeightedPicker(
    TOKENS.filter((t) => t.bias < 0.3),
    byPopularity,
  ),
  neutral: new WeightedPicker(TOKENS, byPopularity),
};

export class PostStream {
  /** Length of one slot in ms; whole milliseconds so slot times are exact. */
  readonly intervalMs: number;
  private readonly cache = new Map<number, StoredPost>();
  private readonly authors: WeightedPicker<Account>;
  /** The accounts that name a surge's token before it starts (surges.ts). */
  private readonly early: ReadonlySet<string>;

  constructor(
    private readonly seed: number,
    private readonly postCount: number,
    private readonly smartCutoff: number,
    accounts: readonly Account[],
  ) {
    this.intervalMs = Math.max(1, Math.floor(WINDOW_MS / postCount));
    this.early = earlyAccounts(seed, accounts);
    this.authors = new WeightedPicker(accounts, (a) => a.activity * (this.early.has(a.username) ? EARLY_ACTIVITY : 1));
  }

  newestSlot(now: number): number {
    return Math.floor(now / this.intervalMs);
  }

  oldestSlot(now: number): number {
    return this.newestSlot(now) - this.postCount + 1;
  }

  /** The first slot whose time is at or after `time`. */
  firstSlotFrom(time: number): number {
    return Math.ceil(time / this.intervalMs);
  }

  post(slot: number): StoredPost {
    let stored = this.cache.get(slot);
    if (!stored) this.cache.set(slot, (stored = this.generate(slot)));
    return stored;
  }

  /** Forgets posts that fell out of the window; they regenerate identically if ever needed. */
  prune(now: number): void {
    if (this.cache.size <= 2 * this.postCount) return;
    const oldest = this.oldestSlot(now);
    for (const slot of this.cache.keys()) if (slot < oldest) this.cache.delete(slot);
  }

  private generate(slot: number): StoredPost {
    const rng = rngFor(this.seed, 'post', slot);
    const author = this.authors.draw(rng);
    const favourite = tokenBySymbol(pick(rng, author.topTokens));
    const time = slot * this.intervalMs;
    const usual = favourite && rng() < 0.55 ? favourite : COMPATIBLE.neutral.draw(rng);
    const main = surgeToken(this.seed, author.username, this.early, time, rng()) ?? usual;
    const mood = moodFor(rng, main);
    const extraCount = pick(rng, [0, 0, 0, 0, 0, 0, 0, 1, 1, 2]);
    const tokens = [main];
    for (let tries = 0; tokens.length < 1 + extraCount && tries < 20; tries++) {
      const extra = COMPATIBLE[mood].draw(rng);
      if (!tokens.includes(extra)) tokens.push(extra);
    }
    // Snowflake-style id: creation time in the high bits, so newer posts have larger ids.
    const id = (BigInt(time) << 22n) | BigInt(hash(this.seed, 'post-id', slot) & 0x3fffff);
    // Scattered around the author's average, which grows with the author's audience.
    const engagement = Math.max(0.1, round(author.avgEngagement * Math.exp(0.45 * normal(rng)), 1));
    // A planted story's post keeps the slot's author; its token is the event's.
    const planted = plantedText(this.seed, time);
    if (planted) tokens.splice(0, tokens.length, tokenBySymbol(planted.token) ?? main);
    const wire: WirePost = Object.freeze({
      id: id.toString(),
      text: planted?.text ?? this.withEarlyContract(author.username, slot, time, renderText(rng, mood, main, tokens.slice(1))),
      author: Object.freeze({ username: author.username, followers: author.followers }),
      created_at: new Date(time).toISOString(),
      tokens: Object.freeze(tokens.map((t) => t.symbol)),
      engagement,
    });
    return { wire, smartAuthor: author.smartRank <= this.smartCutoff };
  }

  /**
   * Some of an early account's posts name the contract address that will enter the trending
   * contracts next (within EARLY_LEAD_MS): a call on an address, as a call on a ticker is. Drawn
   * from (seed, slot) alone, so no other post's draws change.
   */
  private withEarlyContract(username: string, slot: number, time: number, text: string): string {
    if (!this.early.has(username) || unit(this.seed, 'early-contract', slot) >= EARLY_CONTRACT_SHARE) return text;
    const address = comingContract(this.seed, time, EARLY_LEAD_MS);
    return address ? `${text} CA: ${address}` : text;
  }
}

/** The share of an early account's posts that name the coming contract address. */
const EARLY_CONTRACT_SHARE = 0.2;

// Cursors are opaque to clients: base64url of the next slot to serve. The slot is absolute,
// so a cursor stays valid (and never repeats or skips a post) while the clock moves on.
export function encodeCursor(slot: number): string {
  return Buffer.from(`p${slot}`).toString('base64url');
}

export function decodeCursor(cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,40}={0,2}$/.test(cursor)) return undefined;
  const match = /^p(-?\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
