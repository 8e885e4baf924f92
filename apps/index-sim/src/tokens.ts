// The token catalogue. The sentiment bias is part of the design, not of the seed: the demo and
// the sentiment feature rely on some tokens always reading clearly bullish and others clearly
// bearish, whatever seed the simulator runs with.

export interface TokenInfo {
  readonly symbol: string;
  readonly name: string;
  /** -1 (posts about it are nearly all bearish) .. +1 (nearly all bullish). */
  readonly bias: number;
  /** Relative share of cashtag mentions; large caps are talked about most. */
  readonly popularity: number;
  /** Scales the 24 h price swings: majors move little, memecoins a lot. */
  readonly volatility: number;
}

function token(symbol: string, name: string, bias: number, popularity: number, volatility: number): TokenInfo {
  return Object.freeze({ symbol, name, bias, popularity, volatility });
}

export const TOKENS: readonly TokenInfo[] = Object.freeze([
  // Strongly bullish.
  token('SOL', 'Solana', 0.85, 9, 0.7),
  token('JUP', 'Jupiter', 0.8, 3, 1.0),
  token('HYPE', 'Hyperliquid', 0.9, 4, 1.1),
  token('WIF', 'dogwifhat', 0.75, 4, 1.6),
  token('SUI', 'Sui', 0.8, 3, 1.0),
  token('TAO', 'Bittensor', 0.8, 3, 1.0),
  token('RENDER', 'Render', 0.75, 3, 1.0),
  token('BONK', 'Bonk', 0.8, 4, 1.6),
  // Strongly bearish.
  token('APE', 'ApeCoin', -0.8, 3, 1.1),
  token('STRK', 'Starknet', -0.85, 3, 1.0),
  token('ZK', 'ZKsync', -0.8, 3, 1.0),
  token('MANTA', 'Manta Network', -0.8, 3, 1.2),
  token('BLAST', 'Blast', -0.85, 3, 1.2),
  token('FTT', 'FTX Token', -0.9, 3, 1.3),
  token('LUNC', 'Terra Classic', -0.8, 3, 1.4),
  token('MEME', 'Memecoin', -0.75, 3, 1.5),
  // Mixed: small biases, so the same token gets both kinds of post.
  token('BTC', 'Bitcoin', 0.2, 10, 0.3),
  token('ETH', 'Ethereum', 0.05, 9, 0.45),
  token('PEPE', 'Pepe', 0.1, 4, 1.6),
  token('ARB', 'Arbitrum', -0.2, 2.5, 0.9),
  token('OP', 'Optimism', -0.1, 2.5, 0.9),
  token('LINK', 'Chainlink', 0.2, 3, 0.7),
  token('AVAX', 'Avalanche', -0.05, 2.5, 0.8),
  token('DOGE', 'Dogecoin', 0.1, 4, 1.0),
  token('XRP', 'XRP', 0, 4, 0.7),
  token('ADA', 'Cardano', -0.2, 2.5, 0.7),
  token('DOT', 'Polkadot', -0.25, 2, 0.7),
  token('POL', 'Polygon', -0.2, 2, 0.8),
  token('NEAR', 'NEAR Protocol', 0.15, 2, 0.9),
  token('ATOM', 'Cosmos', -0.15, 1.5, 0.8),
  token('INJ', 'Injective', 0.1, 1.5, 1.0),
  token('TIA', 'Celestia', -0.25, 2, 1.1),
  token('SEI', 'Sei', 0, 1.5, 1.1),
  token('APT', 'Aptos', -0.1, 1.5, 0.9),
  token('FET', 'Fetch.ai', 0.2, 1.5, 1.0),
  token('ONDO', 'Ondo', 0.25, 2, 1.0),
  token('PENDLE', 'Pendle', 0.2, 1.5, 1.0),
  token('AAVE', 'Aave', 0.25, 2, 0.8),
  token('UNI', 'Uniswap', 0, 2, 0.8),
  token('LDO', 'Lido DAO', -0.1, 1.5, 0.9),
  token('SHIB', 'Shiba Inu', -0.15, 2.5, 1.2),
  token('FLOKI', 'Floki', 0, 1.5, 1.5),
  token('POPCAT', 'Popcat', 0.15, 2, 1.6),
  token('TRX', 'TRON', -0.05, 1.5, 0.5),
  token('TON', 'Toncoin', -0.1, 2, 0.8),
  token('BNB', 'BNB', 0.1, 3, 0.5),
  token('ENA', 'Ethena', 0, 2, 1.1),
  token('PYTH', 'Pyth Network', -0.05, 1.5, 1.0),
  token('JTO', 'Jito', 0.15, 1.5, 1.0),
  token('RAY', 'Raydium', 0.2, 1.5, 1.1),
]);

const BY_SYMBOL = new Map(TOKENS.map((t) => [t.symbol, t]));

export function tokenBySymbol(symbol: string): TokenInfo | undefined {
  return BY_SYMBOL.get(symbol);
}
