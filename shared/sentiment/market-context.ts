/**
 * Is a post about the crypto market, and does it take a market stance? In a market post with no
 * market word, general-English sentiment is mostly incidental ("happy to answer setup
 * questions", "where the risks sit", "gas: low 6, high 41"), so `score.ts` discounts it; and a
 * post that says it takes no side ("mixed signals") has none.
 */
import { CRYPTO_STANCE_WORDS } from './crypto-lexicon.js';
import { DEFAULT_TICKERS } from './normalize.js';

/** Cashtags, and market acronyms written in capitals (case matters: "link", "op" are words). */
const CASHTAG = /(?<![\w$])\$[A-Za-z][A-Za-z0-9]{0,9}\b/;
const CAPITALISED = /\b[A-Z][A-Za-z0-9]{1,9}\b/g;
const MARKET_ACRONYMS: ReadonlySet<string> = new Set(['NFT', 'NFTs', 'DeFi', 'DAO', 'TVL', 'CEX', 'DEX', 'L1', 'L2', 'L2s']);
/** Vocabulary that hardly occurs outside crypto. */
const JARGON = /\b(?:bitcoin|ethereum|solana|crypto|cryptos|cryptocurrenc(?:y|ies)|blockchains?|defi|nfts?|airdrops?|(?:re)?stak(?:ing|ed|ers?)|validators?|mainnet|testnet|gwei|sats|satoshis?|altcoins?|alts|memecoins?|shitcoins?|tokens?|tokenomics|wallets?|seed phrase|multisig|on-?chain|rollups?|binance|coinbase|kraken|metamask|halving|hashrate|funding rates?|perps?|whales?|hodl\w*|degens?|stablecoins?|dapps?|smart contracts?|mempool|utxos?|gas fees?)\b/i;

export function isMarketPost(text: string): boolean {
  if (CASHTAG.test(text) || JARGON.test(text)) return true;
  for (const [word] of text.matchAll(CAPITALISED)) {
    if (DEFAULT_TICKERS.has(word) || MARKET_ACRONYMS.has(word)) return true;
  }
  return false;
}

/** Whether a normalized post holds a market word or emoji of the crypto lexicon. */
export function hasMarketStance(normalized: string): boolean {
  for (const raw of normalized.toLowerCase().split(/\s+/)) {
    const word = raw.replace(/^[^\w']+|[^\w']+$/g, '');
    if (CRYPTO_STANCE_WORDS.has(word) || word.startsWith('emoji_')) return true;
  }
  return false;
}

/**
 * "Could go either way", "mixed signals", "sitting on the sidelines until it's clearer": the post
 * says it has no stance, whatever its other words weigh.
 */
const NO_STANCE = /\b(?:could|can|might|may|will) (?:go|break) either way\b|\b(?:a )?(?:break|move|volatility|breakout) either way\b|\bmixed (?:signals|feelings)\b|\b(?:sitting|sit|staying|stay|waiting) on (?:the sidelines?|my hands) (?:until|till|for now)\b|\bsitting on my hands\b|\bneither bullish nor bearish\b|\bno (?:idea|clue) where (?:this|it|price|we|\w+) (?:goes|is going|heads)\b/i;

export function declaresNoStance(text: string): boolean {
  return NO_STANCE.test(text);
}
