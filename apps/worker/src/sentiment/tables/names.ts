/** Tickers, project names and slang acronyms that `normalize.ts` treats specially in capitals; the project's own lists. */

/**
 * Well-known tickers, removed when written in capitals. Tickers that are also English sentiment
 * words (WIN, SAFE, SUPER, ...) are left to the caller's `tickers`, since in general text their
 * capitals are emphasis.
 */
export const DEFAULT_TICKERS: ReadonlySet<string> = new Set(
  (
    'BTC XBT ETH SOL XRP ADA DOGE SHIB AVAX DOT LINK MATIC POL UNI ' +
    'ATOM NEAR APT ARB OP SUI SEI TIA INJ PEPE BONK WIF FLOKI TRX LTC BCH XLM ALGO FIL ICP HBAR ' +
    'VET SAND MANA AXS GALA CRV AAVE MKR LDO RNDR RENDER JUP PYTH TON BNB USDT USDC DAI WLD FET ' +
    'STX KAS ORDI IMX GRT ENS LUNA LUNC FTT ETC XMR EOS QNT EGLD FTM RUNE GMX DYDX BLUR STRK ' +
    'ENA ONDO TAO JTO'
  ).split(' '),
);

/** Slang written in capitals by convention, so its capitals are not emphasis. */
export const CAPITALISED_SLANG = /\b(?:ATH|ATL|LFG|NGMI|WAGMI|GMI|FUD|HODL|FOMO|BTFD|GM|NFA|DYOR)\b/g;

/**
 * Chains, protocols and venues named with general sentiment words ("gas on Optimism", "Safe
 * multisig"): capitalised only, since lower case is usually the word itself.
 */
export const PROJECT_NAMES =
  /\b(?:Optimism|(?:BNB )?Smart Chain|Safe multisig|Safe\{Wallet\}|Harmony|Immutable(?: X| zkEVM)?|(?:Trust|Safe|Brave|Rainbow|Phantom|Coinbase|Exodus) Wallet|Magic Eden|Injective|Celestia|Merit Circle|Chainlink|Lido|Discord|Pendle|Ethena|Uniswap|Aave)\b/g;
