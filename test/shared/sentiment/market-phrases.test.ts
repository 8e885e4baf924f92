import { expect } from 'chai';
import { MARKET_PHRASES, MARKET_PHRASE_VALENCE } from '../../../shared/sentiment/market-phrases.js';
import { normalizePost } from '../../../shared/sentiment/normalize.js';
import { polarityClass, scorePolarity, type PolarityClass } from '../../../shared/sentiment/score.js';
import { loadVaderLexicon } from '../../../shared/sentiment/vader-library.js';

// One example per phrase group, written for the test (not taken from the dev set).
const EXAMPLES: ReadonlyArray<readonly [string, PolarityClass]> = [
  ['$ADA printing a double bottom on the daily', 'positive'],
  ['that is a textbook head and shoulders on $DOT', 'negative'],
  ['$ATOM finally broke out of the downtrend', 'positive'],
  ['$INJ broke below the range, ugly', 'negative'],
  ['$SEI looks heavy under 0.40', 'negative'],
  ['$RUNE heating up again', 'positive'],
  ['$FTM gave back all its gains', 'negative'],
  ['every bounce gets sold on $APT', 'negative'],
  ['god candle incoming', 'positive'],
  ['classic distribution on the 4h', 'negative'],
  ['exchange reserves keep dropping', 'positive'],
  ['whales are accumulating $LDO', 'positive'],
  ['the foundation is dumping on retail again', 'negative'],
  ['funding deeply negative while we grind higher', 'positive'],
  ['funding is through the roof, careful', 'negative'],
  ['team minted another 500 million tokens', 'negative'],
  ['huge unlock next month for $STRK', 'negative'],
  ['spot ETF approved', 'positive'],
  ['SEC sued the exchange this morning', 'negative'],
  ['lawsuit dismissed!', 'positive'],
  ['mainnet is live', 'positive'],
  ['mainnet delayed to Q3', 'negative'],
  ['devs went silent months ago', 'negative'],
  ['number go up', 'positive'],
  ["it's so over", 'negative'],
  ['generational buying opportunity', 'positive'],
  ['bought the top like a clown', 'negative'],
  ['just opened a long on $BTC', 'positive'],
  ['the bull run is over', 'negative'],
  ['stablecoin trading at 0.91 on Curve', 'negative'],
  ['bears getting wrecked all week', 'positive'],
  ['bulls got trapped up there', 'negative'],
  ['$NEAR has only gone down since the listing', 'negative'],
  ['order books are empty', 'negative'],
  ['still early, loading more', 'positive'],
  ['not touching $APE ever again', 'negative'],
  ['$BTC closed the month above 60k', 'positive'],
];

describe('market phrases', () => {
  for (const [text, expected] of EXAMPLES) {
    it(`when the post is "${text}", then it is ${expected}`, () => {
      expect(polarityClass(scorePolarity(text))).to.equal(expected);
    });
  }

  it('when a phrase token is chosen, then it is no general-English word (no VADER word changes value)', () => {
    const vader = loadVaderLexicon();
    const clashes = [...MARKET_PHRASE_VALENCE.keys()].filter((token) => vader.has(token));
    expect(clashes).to.deep.equal([]);
  });

  it('when a pattern is compiled, then it has no capturing group (the one-pass rewrite relies on it)', () => {
    for (const { pattern } of MARKET_PHRASES) {
      expect(new RegExp(`${pattern.source}|`).exec('')?.length, pattern.source).to.equal(1);
    }
  });

  it('when a general-English phrase only resembles market talk, then it is left alone', () => {
    expect(normalizePost('feeling tired today')).to.equal('feeling tired today');
    expect(normalizePost('it is going to be a long day')).to.equal('it is going to be a long day');
    expect(normalizePost('I lost 10 lbs')).to.equal('I lost 10 lbs');
    expect(normalizePost('looks like you had fun')).to.equal('looks like you had fun');
  });

  it('when "looks like" hedges a market phrase, then the hedge is not read as liking', () => {
    expect(normalizePost('looks like a double top')).to.equal('a bearpattern');
    expect(scorePolarity('looks like a rug')).to.be.lessThan(scorePolarity('a rug') + 0.001);
  });

  it('when a level is reached or lost, then the direction decides, not the number', () => {
    expect(scorePolarity('$BTC to 100k')).to.be.greaterThan(0.05);
    expect(scorePolarity('$BTC dropped to 50k')).to.be.lessThan(-0.05);
    expect(scorePolarity("can't break 72k")).to.be.lessThan(-0.05);
  });

  it('when the neutral facts name a topic, then they stay neutral', () => {
    for (const text of [
      'Token unlock for $OP on the 30th, 31M tokens',
      'alt season or meme season next?',
      'Which wallet supports the most chains?',
      'proposal passed with 88% in favor',
      'gas fees on Optimism vs Base',
    ]) expect(polarityClass(scorePolarity(text)), text).to.equal('neutral');
  });
});
