/**
 * Is a text about the crypto market? `score.ts` reads market posts with the learned layer and
 * leaves general text to VADER's rules, so these lists name the market (tickers, venues, coins,
 * slang) with words that hardly occur in general English: on the human-rated tweets 9 of 2,100
 * match, on the crypto sets about 9 in 10 posts.
 */
import { CRYPTO_STANCE_WORDS } from './tables/crypto-lexicon.js';
import { DEFAULT_TICKERS } from './normalize.js';

/** Cashtags, and market acronyms written in capitals (case matters: "link", "op" are words). */
const CASHTAG = /(?<![\w$])\$[A-Za-z][A-Za-z0-9]{0,9}\b/;
const CAPITALISED = /\b[A-Z][A-Za-z0-9]{1,9}\b/g;
const MARKET_ACRONYMS: ReadonlySet<string> = new Set(['NFT', 'NFTs', 'DeFi', 'DAO', 'TVL', 'CEX', 'DEX', 'L1', 'L2', 'L2s']);
/**
 * Words that hardly occur outside crypto and name the market without a ticker ("Uniswap
 * governance call tomorrow", "IBIT took in $500M", "FOMC at 2pm", "wen listing", "shorts got
 * rekt"), as regular-expression alternatives.
 */
const MARKET_WORDS: readonly string[] = [
  // Crypto's own vocabulary
  'bitcoin',
  'ethereum',
  'solana',
  'crypto',
  'cryptos',
  'cryptocurrenc(?:y|ies)',
  'blockchains?',
  'defi',
  'nfts?',
  'airdrops?',
  '(?:re)?stak(?:ing|ed|ers?)',
  'validators?',
  'mainnet',
  'testnet',
  'gwei',
  'sats',
  'satoshis?',
  'altcoins?',
  'alts',
  'memecoins?',
  'shitcoins?',
  'tokens?',
  'tokenomics',
  'wallets?',
  'seed phrase',
  'multisig',
  'on-?chain',
  'rollups?',
  'binance',
  'coinbase',
  'kraken',
  'metamask',
  'halving',
  'perps?',
  'whales?',
  'hodl\\w*',
  'degens?',
  'stablecoins?',
  'dapps?',
  'smart contracts?',
  'mempool',
  'utxos?',
  'gas fees?',
  // Protocols, chains, coins, venues, funds and tools
  'uniswap',
  'aave',
  'lido',
  'makerdao',
  'eigenlayer',
  'pendle',
  'ethena',
  'morpho',
  'hyperliquid',
  'arbitrum',
  'polygon',
  'avalanche',
  'cardano',
  'polkadot',
  'chainlink',
  'cosmos',
  'aptos',
  'tron',
  'ripple',
  'tether',
  'sui',
  'injective',
  'celestia',
  'starknet',
  'zksync',
  'dogecoin',
  'doge',
  'shiba?',
  'pepe',
  'bonk',
  'wif',
  'eth',
  'btc',
  'blackrock',
  'ibit',
  'fbtc',
  'gbtc',
  'grayscale',
  'microstrategy',
  'saylor',
  'pump\\.?fun',
  'dexscreener',
  'raydium',
  'jupiter',
  'opensea',
  'pudgy',
  'milady',
  'bayc',
  'tradingview',
  'glassnode',
  'deribit',
  'cme',
  'token2049',
  'ethdenver',
  'devcon',
  // Market structure and events
  'etfs?',
  'fomc',
  'cpi',
  'market ?caps?',
  'mcap',
  'tvl',
  'apy',
  'lps?',
  'liquidity',
  'bonding curve',
  'dexs?',
  'cexs?',
  'coins?',
  'charts?',
  'candles?',
  'longs',
  'shorts',
  'leverage',
  'futures',
  'open interest',
  'funding',
  'put\\/call',
  'bollinger',
  'hash ?rate',
  'netflows?',
  'altseason',
  'bull run',
  'bull market',
  'bear market',
  'supercycle',
  'governance',
  'unlocks?',
  'token unlocks?',
  'vesting',
  'presale',
  'icos?',
  'tge',
  'allowlist',
  'whitelist',
  'minted',
  'minting',
  'mint price',
  'listings?',
  'buybacks?',
  'holders',
  'bags',
  'contract address',
  'points season',
  'whitepaper',
  'solidity',
  'unstak\\w*',
  'lightning network',
  'kyc',
  'dca',
  'dyor',
  // Community and slang
  'devs?',
  'dev wallet',
  'snipers?',
  'kols?',
  'ama',
  'wen',
  'ser',
  'frens',
  'gm',
  'gn',
  'fomo',
  'lfg',
  'rekt',
  'ngmi',
  'wagmi',
  'gmi',
  'fud\\w*',
  'rugs?',
  'rugged',
  'rugpull\\w*',
  'honeypot',
  'bagholders?',
  'bagholding',
  'liquidated',
  'depeg\\w*',
  'ath',
  'mooning',
  'jeets?',
  'btfd',
  'shill\\w*',
  'pumping',
  'dumping',
  'dips?',
  'bullish',
  'bearish',
  'buy the dip',
  'breakout',
];
const MARKET_WORD = new RegExp(`\\b(?:${MARKET_WORDS.join('|')})\\b`, 'i');
/** Names that are also English words count only in capitals. */
const CAPITALISED_NAMES = /\b(?:Compound|Curve|Optimism|Maker|Balancer|Scroll|Base|Blur|Fed|SEC|Circle)\b/;

export function isMarketPost(text: string): boolean {
  if (CASHTAG.test(text) || MARKET_WORD.test(text) || CAPITALISED_NAMES.test(text)) return true;
  for (const [word] of text.matchAll(CAPITALISED)) {
    if (DEFAULT_TICKERS.has(word) || MARKET_ACRONYMS.has(word)) return true;
  }
  return false;
}

/**
 * Tokens `normalize.ts` writes for neutral market jargon ("max pain", "hard fork", "open
 * interest", "rate cut"): no stance, but they say the post is about the market, so its question
 * and notice rules apply rather than VADER's reading of "pain", "hard" or "cut".
 */
const MARKET_JARGON_TOKENS: ReadonlySet<string> = new Set([
  'activeaddresses',
  'blocksizewars',
  'crowdcall',
  'difficultyadjustment',
  'digitalasset',
  'exchangesupport',
  'feargreedindex',
  'fullydiluted',
  'hardfork',
  'impermanentloss',
  'interestrate',
  'maxpain',
  'nexttarget',
  'nfa',
  'nodirection',
  'openinterest',
  'optimisticrollup',
  'ratedecision',
  'riskreward',
  'rollupproof',
  'sentimentreading',
  'smartmoney',
  'stakingreward',
  'stoploss',
  'supportlevel',
  'takeprofit',
  'tvl',
]);

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
