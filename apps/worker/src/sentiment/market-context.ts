/**
 * Is a text about the crypto market? `score.ts` reads market posts with the learned layer and
 * leaves general text to VADER's rules, so its lists (`tables/market-words.ts`) name the market
 * (tickers, venues, coins, slang) with words that hardly occur in general English: on the
 * human-rated tweets 9 of 2,100 match, on the crypto sets about 9 in 10 posts.
 */
import { CRYPTO_STANCE_WORDS } from './tables/crypto-lexicon.js';
import { CAPITALISED_NAMES, MARKET_ACRONYMS, MARKET_JARGON_TOKENS, MARKET_WORDS, MONEY_WORDS } from './tables/market-words.js';
import { NEGATORS } from './tables/model-words.js';
import { DEFAULT_TICKERS } from './tables/names.js';

/** Cashtags, and words in capitals (tickers and market acronyms; case matters: "link", "op" are words). */
const CASHTAG = /(?<![\w$])\$[A-Za-z][A-Za-z0-9]{0,9}\b/;
const CAPITALISED = /\b[A-Z][A-Za-z0-9]{1,9}\b/g;
const MARKET_WORD = new RegExp(`\\b(?:${MARKET_WORDS.join('|')})\\b`, 'i');

const MONEY_WORD = new RegExp(`\\b(?:${MONEY_WORDS.join('|')})\\b`, 'i');

/** Whether a text talks money or trading in everyday words (`MONEY_WORDS`), market post or not. */
export function isMoneyTalk(text: string): boolean {
  return MONEY_WORD.test(text);
}

/** Whether a text holds a cashtag ("$ETH"), as traders' tagged calls do and people's comments mostly do not. */
export function hasCashtag(text: string): boolean {
  return CASHTAG.test(text);
}

export function isMarketPost(text: string): boolean {
  if (CASHTAG.test(text) || MARKET_WORD.test(text) || CAPITALISED_NAMES.test(text)) return true;
  for (const [word] of text.matchAll(CAPITALISED)) {
    if (DEFAULT_TICKERS.has(word) || MARKET_ACRONYMS.has(word)) return true;
  }
  return false;
}

/**
 * Words of `CRYPTO_NEUTRAL_WORDS` where they can only be jargon ("at block 19,800,000", "the DAO
 * treasury", "grants round 4"): VADER reads "block" as -1.0, "treasury" and "grants" as gains.
 */
const NEUTRAL_JARGON = /\bblocks? (?:height|times?|explorer|rewards?|\d)|\btreasury\b|\bgrants (?:program|round|committee)/i;

/** Whether a normalized post holds market jargon, a market word or an emoji of the crypto lexicon. */
export function hasMarketContext(normalized: string): boolean {
  if (NEUTRAL_JARGON.test(normalized)) return true;
  for (const raw of normalized.toLowerCase().split(/\s+/)) {
    if (MARKET_JARGON_TOKENS.has(raw.replace(/^[^\w']+|[^\w']+$/g, ''))) return true;
  }
  return hasMarketStance(normalized);
}

/** Whether a normalized post holds a market word or emoji of the crypto lexicon. */
export function hasMarketStance(normalized: string): boolean {
  for (const raw of normalized.toLowerCase().split(/\s+/)) {
    const word = raw.replace(/^[^\w']+|[^\w']+$/g, '');
    if (CRYPTO_STANCE_WORDS.has(word) || word.startsWith('emoji_')) return true;
  }
  return false;
}

/** `hasMarketStance`, and whether the post also holds a negator (`tables/model-words.ts`). */
export function marketStanceWords(normalized: string): 'none' | 'plain' | 'negated' {
  if (!hasMarketStance(normalized)) return 'none';
  return (normalized.toLowerCase().match(/[a-z0-9']+/g) ?? []).some((word) => NEGATORS.has(word)) ? 'negated' : 'plain';
}
