import { expect } from 'chai';
import { MARKET_PHRASES, MARKET_PHRASE_VALENCE } from '../../../apps/worker/src/sentiment/tables/market-phrases.js';
import { normalizePost } from '../../../apps/worker/src/sentiment/normalize.js';
import { polarityClass, rulePolarity, scorePolarity, type PolarityClass } from '../../../apps/worker/src/sentiment/score.js';
import { loadVaderLexicon } from '../../../apps/worker/src/sentiment/vader-library.js';
import { cryptoSet } from './fixtures.js';

function expectNeutral(texts: readonly string[]): void {
  for (const text of texts) expect(polarityClass(scorePolarity(text)), text).to.equal('neutral');
}

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
  // The phrase table reads a big unlock as dilution (new supply for sale), and so do traders; it was
  // read neutral only while the learned layer barely weighed real tagged posts.
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
  ['frog szn is not over', 'positive'],
  ['the bear market is far from over', 'negative'],
  ['weekly RSI just crossed up on $ALGO', 'positive'],
  ['that breakout fizzled at the highs', 'negative'],
  ['hot CPI print, yields climbing', 'negative'],
  ['CPI came in softer than expected', 'positive'],
  ['everyone is 50x long here', 'negative'],
  ['the unlock doubles circulating supply', 'negative'],
  ['emissions cut in half after the vote', 'positive'],
  ['people who said $ETH was dead are quiet now', 'positive'],
  ['you want to sell here? ngmi', 'positive'],
  ['held my $SOL through the whole crash', 'positive'],
  ['not catching this falling knife', 'negative'],
  ['reducing exposure and going to cash', 'negative'],
  ['this feels like the 2021 top', 'negative'],
  ['this is not a top', 'positive'],
  ['the market barely flinched at the news', 'positive'],
  ['new pool paying 90% with no audit', 'negative'],
  ['$KAS chart looks like a ski slope', 'negative'],
  ['fading every rally on $APT', 'negative'],
  ['burn exceeded issuance again this week', 'positive'],
  ['the unlock fears were priced in', 'positive'],
  ['the move was perp driven and spot never followed', 'negative'],
  ['team moved tokens to a market maker, never a good sign', 'negative'],
  ['$DOT cannot hold 5.2', 'negative'],
  ['retail is back', 'positive'],
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
    expect(normalizePost('you had fun, a long day')).to.equal('you had fun, a long day');
  });

  it('when a phrase matches, then it ends at a word, never swallowing the space after it', () => {
    // A swallowed space glues the token to the next word ("diamondhandswhole"), and both score nothing.
    const texts = cryptoSet('crypto-dev').map((item) => item.text);
    const swallowed = MARKET_PHRASES.flatMap((phrase) =>
      texts.flatMap((text) =>
        [...text.matchAll(phrase.pattern)].filter((match) => /\s$/.test(match[0])).map((match) => `${phrase.token}: "${match[0]}"`),
      ),
    );
    expect(swallowed).to.deep.equal([]);
  });

  it('when "looks like" compares, then "like" is not read as liking', () => {
    expect(normalizePost('looks like a double top')).to.equal('looks a bearpattern');
    expect(normalizePost('feels like a slow Tuesday')).to.equal('feels a slow Tuesday');
    expect(scorePolarity('looks like a rug')).to.be.lessThan(scorePolarity('a rug') + 0.001);
  });

  it('when a post is a notice, a schedule or says it takes no side, then it is neutral', () => {
    expectNeutral([
      'Node 2.1 released, validators please upgrade at your convenience',
      'Talks from the conference are linked below for anyone who missed them',
      'Block reward goes from 3.125 to 1.5625 BTC at the halving',
      'Mixed signals on $AVAX, sitting on the sidelines until it clears up',
      'TIL $XRP has no mining at all',
      'Can someone explain how restaking slashing works',
      'Rule update: pump group invites will get you banned',
    ]);
  });

  it('when "top" is a ranking, not the market top, then it keeps its general meaning', () => {
    expect(normalizePost('the top recruit in the country')).to.equal('the top recruit in the country');
    expect(normalizePost('called the last top.')).to.equal('called topin.');
  });

  it('when a level is reached or lost, then the direction decides, not the number', () => {
    expect(scorePolarity('$BTC to 100k')).to.be.greaterThan(0.05);
    expect(scorePolarity('$BTC dropped to 50k')).to.be.lessThan(-0.05);
    expect(scorePolarity("can't break 72k")).to.be.lessThan(-0.05);
  });

  it('when the neutral facts name a topic, then they stay neutral', () => {
    expectNeutral([
      'Token unlock for $OP on the 30th, 31M tokens',
      'alt season or meme season next?',
      'Which wallet supports the most chains?',
      'proposal passed with 88% in favor',
      'gas fees on Optimism vs Base',
    ]);
  });

  it('when a level is followed by more words, then the words stay words', () => {
    expect(normalizePost("don't think it stays below 200 for long")).to.equal("don't think it lostlevel for long");
    expect(scorePolarity("don't think it stays below 200 for long")).to.be.greaterThan(0.05);
    expect(scorePolarity('lost the $60K support on the daily close')).to.be.lessThan(-0.05);
  });

  it('when a move is written as two prices, then their order gives the direction', () => {
    expect(normalizePost('portfolio went from 50k to 8k')).to.equal('portfolio went pricedown');
    expect(normalizePost('from $0.40 to $2 in a week')).to.equal('priceup in a week');
    expect(normalizePost('from 8 to 10 hours')).to.equal('from 8 to 10 hours');
  });

  it('when a percentage is under 2, then it is a quiet day, not a stance', () => {
    expect(polarityClass(scorePolarity('Weekly recap: $BTC +0.8%, $ETH -0.5%, $SOL +1.2%'))).to.equal('neutral');
    // A bare move report is the learned layer's call (authors label it either way); the rules read
    // the move itself.
    expect(polarityClass(rulePolarity(normalizePost('$SOL up 12% today')))).to.equal('positive');
    expect(polarityClass(scorePolarity('TVL dropped 35% in two months'))).to.equal('negative');
  });

  it('when a pause is announced as scheduled, then it is routine, unless in scare quotes', () => {
    const notice = 'Wallet maintenance tomorrow at 03:00 UTC. Deposits and withdrawals paused for about an hour';
    expect(polarityClass(scorePolarity(notice))).to.equal('neutral');
    expect(scorePolarity('exchange paused withdrawals "for maintenance". get your coins out')).to.be.lessThan(-0.05);
    expect(scorePolarity('withdrawals halted, no word from the team')).to.be.lessThan(-0.05);
  });

  it('when a position is taken on a ticker, then its side is the stance', () => {
    expect(scorePolarity('Long $XRP from 2.41')).to.be.greaterThan(0.05);
    expect(scorePolarity('Short $DOGE here')).to.be.lessThan(-0.05);
    expect(normalizePost('a long day')).to.equal('a long day');
  });

  it('when a negator stands between a demand measure and its verb, then it still negates', () => {
    expect(scorePolarity('L2 demand is slowing down')).to.be.lessThan(-0.05);
    expect(scorePolarity("L2 demand isn't slowing down")).to.be.greaterThan(0.05);
    expect(scorePolarity('spot volume keeps climbing')).to.be.greaterThan(0.05);
  });

  it('when two rules overlap, then the leftmost wins, whichever chunk of the table holds it', () => {
    // "support level" is an earlier idiom than "through every support"; the later one starts first.
    expect(normalizePost('slicing through every support level')).to.equal('slicing lostsupport');
  });
});
