/**
 * Crypto-market vocabulary on VADER's scale (-4 .. +4, where VADER's own "good" is 1.9,
 * "great" 3.1, "bad" -2.5, "scam" -2.7). Entries override the library's value for the same
 * word: "exploit" is a mild -0.4 in general English but a theft in this market.
 *
 * Price moves are symmetric ("pump" 1.6, "dump" -1.6, the library's value), so a question
 * such as "pump or dump?" stays neutral.
 *
 * Multi-word idioms never reach the lexicon as words: `normalize.ts` rewrites them into the
 * single tokens listed under "idiom tokens" below, so VADER's negation and booster rules
 * still apply to them ("not a rug pull", "absolutely to the moon").
 */
import { MARKET_PHRASE_VALENCE } from './market-phrases.js';

const PRICE_UP: Record<string, number> = {
  moon: 2.0, moons: 2.0, mooning: 2.8, mooned: 2.5, moonshot: 2.0,
  pump: 1.6, pumps: 1.6, pumping: 2.0, pumped: 1.8,
  rally: 1.8, rallies: 1.8, rallying: 2.0, rallied: 1.8,
  ripping: 2.0, parabolic: 2.2, soaring: 2.2, surging: 1.8, skyrocketing: 2.5,
  breakout: 1.8, breakouts: 1.5, uptrend: 1.5, rebound: 1.2, rebounding: 1.4,
  bounce: 0.8, bounced: 1.0, bouncing: 1.0, reclaim: 1.2, reclaims: 1.2, reclaimed: 1.5,
  recovery: 1.2, recovering: 1.2, recovered: 1.2, undervalued: 1.8, oversold: 0.8,
  inflows: 1.2, adoption: 1.2, upside: 1.5, deflationary: 1.2,
  pamp: 1.8, pamping: 2.0, skyrocketed: 2.5, soared: 2.2, surged: 1.8, rips: 1.8,
  outperform: 1.2, outperforms: 1.2, outperforming: 1.5, outperformed: 1.5,
  partnership: 1.2, partnerships: 1.2,
};

const CONVICTION: Record<string, number> = {
  bullish: 2.5, bulls: 1.2, wagmi: 2.5, gmi: 2.0, lfg: 2.5,
  hodl: 1.2, hodling: 1.2, hodler: 1.0, hodlers: 1.0,
  accumulate: 1.2, accumulating: 1.5, accumulated: 1.0, accumulation: 1.2,
  aping: 1.5, btfd: 1.8, gem: 1.8, gems: 1.5,
  bullishness: 2.0, lambo: 1.5, safu: 1.5, stacking: 1.0, cooking: 1.0,
  // A shakeout flushes weak hands before a move up; VADER reads the general word (-1.3).
  shakeout: 0.8, unstoppable: 2.0, thriving: 2.0, constructive: 1.2, healthier: 1.8,
};

const PRICE_DOWN: Record<string, number> = {
  dump: -1.6, dumps: -1.6, dumping: -2.0, dumped: -1.8,
  dip: -0.6, dips: -0.5, dipping: -0.8,
  crashed: -2.2, crashing: -2.2, tanked: -2.2, tanking: -2.2,
  nuked: -2.5, nuking: -2.5, plunge: -2.0, plunged: -2.2, plummeted: -2.5, plummeting: -2.5,
  bleed: -1.8, bleeding: -2.2, bloodbath: -3.0,
  breakdown: -2.0, downtrend: -1.5, selloff: -2.0, correction: -1.2, overbought: -0.8,
  capitulation: -2.5, capitulate: -2.2, capitulated: -2.4, capitulating: -2.5,
  outflows: -1.2, downside: -1.5,
  tanks: -2.0, crashes: -2.0, nuke: -2.2, nukes: -2.5,
  plummets: -2.5, plunges: -2.0, plunging: -2.2, slump: -1.8, slumps: -1.8, slumped: -1.8,
  sinking: -1.5, bleeds: -1.8, bled: -1.8, flush: -1.2, flushed: -1.5, drawdown: -1.5,
  pullback: -0.5, pullbacks: -0.5, retrace: -0.6, retraced: -0.8, retracing: -0.8,
  overheated: -1.0, overvalued: -1.8, distributing: -1.0, underwater: -1.5,
  underperform: -1.2, underperforms: -1.2, underperforming: -1.5, underperformed: -1.5,
  // "Fading" a move is betting against it: "not fading this one" is bullish.
  fade: -1.0, fading: -1.0, faded: -1.0, sliding: -1.5, slides: -1.2, wobble: -1.0, wobbling: -1.2,
};

const LOSS_AND_DISTRESS: Record<string, number> = {
  bearish: -2.5, bears: -1.2, ngmi: -2.5, rekt: -2.8, wrecked: -2.5,
  liquidated: -2.5, liquidation: -2.0, liquidations: -2.0, liquidating: -2.0,
  bagholder: -2.0, bagholders: -2.0, bagholding: -2.0, overleveraged: -1.5,
  fud: -1.5, shill: -1.5, shills: -1.5, shilled: -1.2, shilling: -1.5,
  jeets: -1.5, stagnant: -1.2, worthless: -2.5,
  depeg: -2.5, depegged: -2.8, depegging: -2.5, insolvent: -2.8, insolvency: -2.8,
  delist: -1.8, delisted: -2.0, delisting: -2.0,
  bearishness: -2.0, cooked: -1.8, jeet: -1.2, fudding: -1.2, fudders: -1.2,
  dumper: -1.5, dumpers: -1.5,
};

const THEFT_AND_FRAUD: Record<string, number> = {
  rug: -3.0, rugs: -2.8, rugged: -3.2, rugging: -3.0, rugpull: -3.2, rugpulls: -3.2,
  rugpulled: -3.2, scam: -3.0, scams: -3.0, scammed: -3.0, scammer: -2.8, scammers: -2.8,
  honeypot: -3.0, ponzi: -2.8, exploit: -2.5, exploits: -2.5, exploited: -2.8,
  exploiter: -2.5, drain: -2.0, drained: -2.5, draining: -2.2, hack: -1.8, hacked: -2.2,
  scammy: -2.2, phishing: -2.2, drainer: -2.5, drainers: -2.5, compromised: -2.0,
  hacker: -1.8, hackers: -1.8, bankruptcy: -2.8, bankrupt: -2.8,
};

/** Tokens that `normalize.ts` writes for multi-word idioms. */
const IDIOM_TOKENS: Record<string, number> = {
  tothemoon: 3.0, ath: 2.2, newhighs: 1.8, higherlows: 1.5, uponly: 2.0,
  buythedip: 1.8, sendit: 2.0, apedin: 1.8, loadingup: 1.5, explodehigher: 2.2,
  diamondhands: 2.0, bullrun: 2.5, bullmarket: 2.0, shortsqueeze: 2.0, ignorefud: 1.5,
  supportheld: 1.5, resistanceflipped: 1.8, greencandle: 1.5, priceup: 1.5, xgain: 1.8,
  pumpanddump: -3.0, exitscam: -3.5, atl: -1.8, lowerlows: -1.8, bearmarket: -2.2,
  cryptowinter: -2.2, bulltrap: -2.2, deadcatbounce: -2.0, paperhands: -1.5, tozero: -2.5,
  lostsupport: -2.0, redcandle: -1.5, pricedown: -1.5, wipedout: -2.2, downbad: -2.0,
  notselling: 1.5, letthemcook: 1.8, probablynothing: 1.2, bottomin: 1.5,
  buyersstepin: 1.5, buypressure: 1.5, inprofit: 1.5, pricehigher: 1.5,
  soldout: -1.2, exitliquidity: -2.2, withdrawalsfrozen: -2.5, heavybags: -1.5,
  sellpressure: -1.5, sellthenews: -1.0, topin: -1.5,
  boughtmore: 1.5, noregrets: 1.5, lastchance: 1.5, longsrekt: -2.0, fedup: -1.5,
  pricelower: -1.5,
};

/** Emoji are rewritten by `normalize.ts` into these tokens (see EMOJI_TOKENS there). */
const EMOJI_VALENCE: Record<string, number> = {
  emoji_rocket: 2.0, emoji_moon: 1.5, emoji_chartup: 1.8, emoji_chartdown: -1.8,
  emoji_gem: 1.2, emoji_raisedhands: 1.5, emoji_fire: 1.5, emoji_bull: 1.5, emoji_bear: -1.5,
  emoji_greencircle: 1.0, emoji_redcircle: -1.0, emoji_moneyface: 1.8, emoji_moneybag: 1.2,
  emoji_muscle: 1.8, emoji_party: 2.2, emoji_thumbsup: 1.8, emoji_thumbsdown: -1.8,
  emoji_heart: 2.6, emoji_brokenheart: -2.5, emoji_check: 1.0, emoji_cross: -1.0,
  emoji_warning: -1.0, emoji_pray: 1.0, emoji_skull: -1.5, emoji_blood: -1.8,
  emoji_clown: -1.5, emoji_sob: -2.0, emoji_cry: -2.0, emoji_scream: -1.8, emoji_grimace: -0.8,
  emoji_angry: -2.5, emoji_rage: -2.8, emoji_cursing: -3.0, emoji_disappointed: -2.0,
  emoji_pensive: -1.8, emoji_hearteyes: 2.8, emoji_smile: 2.0, emoji_slightsmile: 1.5,
  emoji_grin: 2.0, emoji_joy: 1.5, emoji_cool: 1.5,
};

/** General-English sentiment words that are plain jargon here ("block 840,000 mined"). */
export const CRYPTO_NEUTRAL_WORDS: readonly string[] = [
  'block', 'blocks', 'treasury', 'trustless', 'sharing', 'dominance', 'unconfirmed', 'grants',
];

const STANCE = {
  ...PRICE_UP, ...CONVICTION, ...PRICE_DOWN, ...LOSS_AND_DISTRESS, ...THEFT_AND_FRAUD, ...IDIOM_TOKENS,
  ...Object.fromEntries(MARKET_PHRASE_VALENCE),
};

// A phrase token reused from the tables above must keep their valence, or one would silently win.
for (const [token, valence] of MARKET_PHRASE_VALENCE) {
  const table = { ...PRICE_UP, ...PRICE_DOWN, ...IDIOM_TOKENS }[token];
  if (table !== undefined && table !== valence) throw new Error(`crypto-lexicon: ${token} has two valences`);
}

/** All crypto entries, word (lower case) -> valence. */
export const CRYPTO_LEXICON: ReadonlyMap<string, number> = new Map(Object.entries({
  ...STANCE, ...EMOJI_VALENCE,
}));

/** The market words (not emoji), whose negation `score.ts` reads more widely than VADER's. */
export const CRYPTO_STANCE_WORDS: ReadonlySet<string> = new Set(Object.keys(STANCE));
