/**
 * A post's story units (docs/decisions.md, "Stories"): its tokens (cashtags, by the parser the X
 * provider uses), its contract addresses, and its terms: case-folded words and adjacent word
 * pairs, stop words out. And its fingerprint, which finds reposts and an author's near-duplicates.
 */
import { tokensOf } from '../providers/x-wire.js';
import { STOP_WORDS } from './stop-words.js';

/** At most this many terms (and as many pairs) per post: a long post is no more evidence than a short one. */
export const MAX_TERMS_PER_POST = 40;

const URL = /\bhttps?:\/\/\S+|\bwww\.\S+/gi;
const MENTION = /(^|\s)@\w+/g;
const CASHTAG = /\$[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z]+)?/g;
const EVM_ADDRESS = /\b0x[0-9a-fA-F]{40}\b/g;
/** Solana's base58 addresses; a digit and both cases required, so that no long word passes for one. */
const BASE58_ADDRESS =
  /\b(?=[1-9A-HJ-NP-Za-km-z]*\d)(?=[1-9A-HJ-NP-Za-km-z]*[A-Z])(?=[1-9A-HJ-NP-Za-km-z]*[a-z])[1-9A-HJ-NP-Za-km-z]{32,44}\b/g;
const WORD = /\d+(?:[.,]\d+)*%?|[\p{L}][\p{L}\p{N}']*/gu;

export interface PostUnits {
  /** Units prefixed by kind: `$BTC` (token), `ca:0x…` (contract), `cpi` (word), `cpi report` (pair). */
  units: string[];
  tokens: string[];
  contracts: string[];
  /** Case-folded content words in order, for the fingerprint. */
  words: string[];
}

export function contractsIn(text: string): string[] {
  const evm = [...text.matchAll(EVM_ADDRESS)].map((match) => match[0].toLowerCase());
  const solana = [...text.matchAll(BASE58_ADDRESS)].map((match) => match[0]);
  return [...new Set([...evm, ...solana])];
}

/** Words worth a unit: no stop word, no single letter, no bare one-digit number. */
function contentWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0].replace(/['’]s$/, '').replace(/,/g, '');
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    words.push(word);
  }
  return words;
}

export function unitsOf(text: string, tokens: readonly string[] = []): PostUnits {
  const postTokens = tokensOf({ text, cashtags: [...tokens] });
  const contracts = contractsIn(text);
  const plain = text.replace(URL, ' ').replace(MENTION, ' ').replace(CASHTAG, ' ').replace(EVM_ADDRESS, ' ').replace(BASE58_ADDRESS, ' ');
  const words = contentWords(plain.toLowerCase());
  const terms = new Set<string>();
  const pairs = new Set<string>();
  for (let i = 0; i < words.length && terms.size < MAX_TERMS_PER_POST; i += 1) {
    const word = words[i] as string;
    terms.add(word);
    const next = words[i + 1];
    if (next !== undefined && next !== word && pairs.size < MAX_TERMS_PER_POST) pairs.add(`${word} ${next}`);
  }
  const units = [...postTokens.map((token) => `$${token}`), ...contracts.map((address) => `ca:${address}`), ...terms, ...pairs];
  return { units, tokens: postTokens, contracts, words };
}

/**
 * What makes two posts the same: their first twelve distinct content words, in order. A repost
 * quotes the words it reposts; an author's near-duplicate differs in a link, a cashtag or a number's tail.
 */
export function fingerprintOf(words: readonly string[]): string {
  const kept: string[] = [];
  for (const word of words) {
    if (/^\d/.test(word) || kept.includes(word)) continue;
    kept.push(word);
    if (kept.length === 12) break;
  }
  return kept.join(' ');
}

/** A repost announced as such: X's and StockTwits' "RT @name". */
export const isMarkedRepost = (text: string): boolean => /^\s*RT\s+@\w+/i.test(text);
