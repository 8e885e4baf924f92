/**
 * Words the learned layer's features read specially (`market-model.ts`); the project's own lists.
 * Changing one changes the features the committed weights were trained on (see `FEATURES_VERSION`).
 */

/** Negators whose reach marks the following words as negated. */
export const NEGATORS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'nobody',
  'nothing',
  'without',
  "don't",
  'dont',
  "can't",
  'cant',
  "won't",
  'wont',
  "isn't",
  'isnt',
  "aren't",
  "ain't",
  "didn't",
  "doesn't",
]);

/**
 * Asset names are not features: tagged posts from one week teach that "eth" was bullish that week,
 * which says nothing about a post next month ("extremely bearish on eth" read bullish with them).
 * Only names that are not English words: "link", "near", "dot" still say what they say.
 */
export const ASSET_NAMES: ReadonlySet<string> = new Set(
  (
    'btc xbt eth sol xrp ada doge shib avax matic atom apt arb tia inj ' +
    'pepe bonk floki trx ltc bch xlm algo hbar axs crv aave mkr ldo rndr jup pyth bnb usdt usdc wld stx kas imx grt ' +
    'luna lunc ftt xmr eos qnt egld ftm gmx dydx strk ena ondo tao jto bitcoin ethereum solana cardano dogecoin ' +
    'ripple polkadot avalanche litecoin chainlink tether spy qqq tsla'
  ).split(' '),
);
