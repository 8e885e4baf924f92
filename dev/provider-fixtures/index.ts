/** The three providers' fixture servers together, and the environment that points the worker at them. */
import { COINGECKO_KEY, startCoinGeckoFixture, type CoinGeckoFixture } from './coingecko.js';
import { ELFA_KEY, startElfaFixture, type ElfaFixture } from './elfa.js';
import { startXFixture, X_TOKEN, type XFixture, type XFixtureOptions } from './x.js';

export { COINGECKO_KEY, ELFA_KEY, X_TOKEN };
/** rugpull_dev is suspended on X. */
export const TRACKED = ['cryptoalice', 'Bob_Trades', 'ghost_acct', 'rugpull_dev'];

export interface ProviderFixtures {
  elfa: ElfaFixture;
  coingecko: CoinGeckoFixture;
  x: XFixture;
  /** INDEX_PROVIDER=composite pointed at the fixtures, with their keys. */
  env: Record<string, string>;
  reset(): void;
  close(): Promise<void>;
}

export async function startProviderFixtures(options: { x?: XFixtureOptions } = {}): Promise<ProviderFixtures> {
  const [elfa, coingecko, x] = await Promise.all([startElfaFixture(), startCoinGeckoFixture(), startXFixture(options.x)]);
  return {
    elfa,
    coingecko,
    x,
    env: {
      INDEX_PROVIDER: 'composite',
      ELFA_API_KEY: ELFA_KEY,
      ELFA_API_URL: elfa.url,
      COINGECKO_API_KEY: COINGECKO_KEY,
      COINGECKO_API_URL: coingecko.url,
      X_BEARER_TOKEN: X_TOKEN,
      X_API_URL: x.url,
      TRACKED_ACCOUNTS: TRACKED.join(','),
    },
    reset() {
      for (const server of [elfa, coingecko, x]) server.reset();
    },
    close: async () => {
      await Promise.all([elfa.close(), coingecko.close(), x.close()]);
    },
  };
}
