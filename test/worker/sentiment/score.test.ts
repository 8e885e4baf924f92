import { expect } from 'chai';
import { normalizePost } from '../../../apps/worker/src/sentiment/normalize.js';
import { polarityClass, rulePolarity, scorePolarity, type PolarityClass } from '../../../apps/worker/src/sentiment/score.js';
import { vaderAnalyzer } from '../../../apps/worker/src/sentiment/vader-library.js';

/**
 * The rules layer alone. The learned layer grades a market post by what labelled posts taught it,
 * so grading properties of VADER's rules (intensifiers, a question's evaluative words) are checked
 * on the rules, which the learned layer reads as a feature and which score all general text.
 */
const rules = (text: string): number => rulePolarity(normalizePost(text));

const EXAMPLES: ReadonlyArray<readonly [string, PolarityClass]> = [
  ['$SOL is mooning', 'positive'],
  ['BTC to the moon', 'positive'],
  ['wagmi', 'positive'],
  ['LFG', 'positive'],
  ['aped in at the open', 'positive'],
  ['buy the dip', 'positive'],
  ['new all-time high for $ETH', 'positive'],
  ['$ARB breakout, send it', 'positive'],
  ['accumulating more $LINK', 'positive'],
  ['hodl', 'positive'],
  ['got rugged', 'negative'],
  ['textbook rug pull', 'negative'],
  ['totally rekt', 'negative'],
  ['$PEPE dumping', 'negative'],
  ['ngmi', 'negative'],
  ['bagholders everywhere', 'negative'],
  ['liquidated on my long', 'negative'],
  ['bridge exploited and drained', 'negative'],
  ["it's a honeypot", 'negative'],
  ['capitulation', 'negative'],
  ['bearish', 'negative'],
  ['stop shilling', 'negative'],
  ['$BTC at 64,000 on Coinbase', 'neutral'],
  ['Bitcoin block 840,000 mined', 'neutral'],
  ['How do you calculate impermanent loss?', 'neutral'],
];

describe('scorePolarity', () => {
  describe('crypto vocabulary', () => {
    for (const [text, expected] of EXAMPLES) {
      it(`when the post is "${text}", then it is ${expected}`, () => {
        expect(polarityClass(scorePolarity(text))).to.equal(expected);
      });
    }

    it('when plain VADER reads the same slang, then it misses it (the extension matters)', () => {
      expect(vaderAnalyzer.polarity_scores('$SOL is mooning').compound).to.equal(0);
      expect(vaderAnalyzer.polarity_scores('got rugged').compound).to.equal(0);
    });
  });

  describe('double negation', () => {
    it('when two negators govern a market word, then they cancel', () => {
      expect(scorePolarity("I don't see how $ETH doesn't go higher")).to.be.greaterThan(0.05);
      expect(scorePolarity("there's no way this doesn't moon")).to.be.greaterThan(0.05);
    });

    it('when one negator governs it, then it still flips', () => {
      expect(scorePolarity("I don't see $ETH going higher")).to.be.lessThan(-0.05);
    });
  });

  describe('negation', () => {
    it('when bearish is negated, then the post leans bullish', () => {
      expect(scorePolarity('$SOL is not bearish')).to.be.greaterThan(0.05);
      expect(scorePolarity('NOT bearish')).to.be.greaterThan(0.05);
    });

    it('when a bullish move is negated, then the post leans bearish', () => {
      expect(scorePolarity('$ETH is not going to moon')).to.be.lessThan(-0.05);
      expect(scorePolarity("I'm not bullish on $DOT anymore")).to.be.lessThan(-0.05);
    });

    it('when a bearish move is negated, then the post leans bullish', () => {
      expect(scorePolarity("It isn't going to dump")).to.be.greaterThan(0.05);
      expect(scorePolarity('This team is never rugging')).to.be.greaterThan(0.05);
    });

    it('when a negation sits in an earlier clause, then it does not flip the next one', () => {
      expect(scorePolarity('Don’t sell, not bearish')).to.be.greaterThan(0.05);
    });

    it('when a negation sits further back in the clause, then it still flips market words', () => {
      expect(scorePolarity("I don't think $ETH will ever moon")).to.be.lessThan(-0.05);
      expect(scorePolarity("I can't see any reason to be bullish on $ATOM")).to.be.lessThan(-0.05);
      expect(scorePolarity('not buying this pump')).to.be.lessThan(-0.05);
      expect(scorePolarity('this won’t moon')).to.be.lessThan(-0.05);
    });

    it('when "no" precedes a market word, then it negates only the next word or two', () => {
      expect(scorePolarity('no rug, devs still shipping')).to.be.greaterThan(0.05);
      expect(scorePolarity('no more dumping')).to.be.greaterThan(0.05);
      expect(scorePolarity('no signs of a rug')).to.be.greaterThan(0.05);
      expect(scorePolarity('no fud just bullish vibes')).to.be.greaterThan(0.05);
    });

    it('when selling is negated, then the post is conviction, not a sell call', () => {
      expect(scorePolarity('never selling my $ETH')).to.be.greaterThan(0.05);
      expect(scorePolarity("I'm not selling a single sat")).to.be.greaterThan(0.05);
      expect(scorePolarity("won't sell below 100k")).to.be.greaterThan(0.05);
      expect(scorePolarity('Sold everything, done with this coin')).to.be.lessThan(-0.05);
    });

    it('when a phrase only looks negated, then it is read as what it means', () => {
      expect(scorePolarity("Can't believe how strong $AVAX has been")).to.be.greaterThan(0.05);
      expect(scorePolarity('fundamentals never looked better')).to.be.greaterThan(0.05);
      expect(scorePolarity('never been this bullish')).to.be.greaterThan(0.05);
      expect(scorePolarity('nothing but green candles')).to.be.greaterThan(0.05);
      expect(scorePolarity("we're all gonna make it")).to.be.greaterThan(0.05);
      expect(scorePolarity("you're not gonna make it")).to.be.lessThan(-0.05);
    });

    it('when "but" joins two clauses, then the second one dominates', () => {
      expect(scorePolarity('Great team but the chart is bearish')).to.be.lessThan(-0.05);
      expect(scorePolarity('Terrible week but still bullish')).to.be.greaterThan(0.05);
    });
  });

  describe('idioms', () => {
    const IDIOMS: ReadonlyArray<readonly [string, PolarityClass]> = [
      ['Exchange halted withdrawals', 'negative'],
      ['you are their exit liquidity', 'negative'],
      ['we are so cooked', 'negative'],
      ['devs cooked with this upgrade', 'positive'],
      ['the bottom is in', 'positive'],
      ['local top is in, taking profits', 'negative'],
      ['$PEPE 40% up in a day', 'positive'],
      ['$SOL 12% down on the week', 'negative'],
      ['heading higher from here', 'positive'],
      ['buyers stepping in on every dip', 'positive'],
      ['stablecoin lost its peg', 'negative'],
      ['$DOT about to tank', 'negative'],
      ['staking rewards are paid every epoch', 'neutral'],
      ['Not financial advice, just sharing my watchlist', 'neutral'],
      ['$DOGE 4h chart, no clear direction yet', 'neutral'],
      ['longs getting wiped out', 'negative'],
      ['slicing through every support level', 'negative'],
      ['sold my whole bag, done', 'negative'],
      ['bought more on the dip', 'positive'],
      ['holding, zero regrets', 'positive'],
      ['cheapest $ETH you will ever see', 'positive'],
      ['now we go up', 'positive'],
      ['Kraken to support the upcoming $DOT upgrade', 'neutral'],
      ['How do I bridge to Base without paying crazy fees?', 'neutral'],
      ['Is it better to stake directly or use a liquid staking token?', 'neutral'],
    ];
    for (const [text, expected] of IDIOMS) {
      it(`when the post is "${text}", then it is ${expected}`, () => {
        expect(polarityClass(scorePolarity(text))).to.equal(expected);
      });
    }
  });

  describe('questions', () => {
    it('when a question asks for a pick, then its evaluative words do not score', () => {
      expect(scorePolarity("What's the best wallet for $SOL staking?")).to.equal(0);
      expect(scorePolarity('Which L2 has the lowest fees right now?')).to.equal(0);
      expect(scorePolarity('Looking for a good tax tool, recommendations?')).to.equal(0);
    });

    it('when the same words are not in such a question, then they still score', () => {
      expect(scorePolarity('Best week ever for $SOL')).to.be.greaterThan(0.05);
      expect(rules('Best week ever for $SOL, right?')).to.be.greaterThan(0.05);
      expect(scorePolarity('Which coin is dumping hardest?')).to.be.lessThan(-0.05);
    });
  });

  describe('incidental sentiment', () => {
    it('when a market post has no market word, then mild general sentiment does not make it a stance', () => {
      expect(scorePolarity('$ETH gas today: low 6 gwei, high 41 around the US open')).to.equal(0);
      expect(scorePolarity('Thread on how restaking works and where the risks sit')).to.equal(0);
    });

    it('when the post is not about the market, then the same words still score', () => {
      expect(scorePolarity('Turnout today: low 6, high 41 around the open')).to.be.lessThan(-0.05);
    });

    it('when a market post takes a market stance, or its general sentiment is strong, then that counts', () => {
      expect(scorePolarity('Happy to hold $BTC, bullish')).to.be.greaterThan(0.3);
      expect(scorePolarity('Best week ever for $SOL, so happy!')).to.be.greaterThan(0.05);
      expect(scorePolarity('This $SOL team is a disgrace, terrible and dishonest')).to.be.lessThan(-0.05);
    });
  });

  describe('tickers', () => {
    it('when a cashtag is an English word, then it does not score', () => {
      expect(scorePolarity('$LOVE')).to.equal(0);
      expect(scorePolarity('$WIN listed on Binance')).to.equal(0);
      expect(scorePolarity('$SAFE $FUN $SUPER')).to.equal(0);
    });

    it('when a post names tickers, then the score is the same as without them', () => {
      expect(scorePolarity('$SOL is mooning')).to.equal(scorePolarity('is mooning'));
      expect(scorePolarity('BTC ETH SOL')).to.equal(0);
    });

    it('when the caller names a ticker written in capitals, then it does not score', () => {
      expect(scorePolarity('WIN listed on Binance')).to.be.greaterThan(0);
      expect(scorePolarity('WIN listed on Binance', { tickers: ['$win'] })).to.equal(0);
    });
  });

  describe('emphasis', () => {
    it('when an intensifier precedes, then the rules score it stronger; a dampener, weaker', () => {
      expect(rules('very bullish on eth')).to.be.greaterThan(rules('bullish on eth'));
      expect(rules('slightly bullish on eth')).to.be.lessThan(rules('bullish on eth'));
      expect(rules('extremely bearish on eth')).to.be.lessThan(rules('bearish on eth'));
      expect(scorePolarity('extremely bearish on eth')).to.be.lessThan(-0.05);
    });

    it('when the sentiment word alone is in capitals, then the score is stronger', () => {
      expect(scorePolarity('BULLISH on eth')).to.be.greaterThan(scorePolarity('bullish on eth'));
      expect(scorePolarity('RUGGED again')).to.be.lessThan(scorePolarity('rugged again'));
    });

    it('when exclamation marks follow, then the score is stronger', () => {
      expect(scorePolarity('bullish on eth!!!')).to.be.greaterThan(scorePolarity('bullish on eth'));
    });

    it('when a post has emoji, then they count', () => {
      expect(scorePolarity('🚀🚀🚀')).to.be.greaterThan(0.5);
      expect(scorePolarity('📉📉')).to.be.lessThan(-0.5);
    });
  });

  describe('output', () => {
    const texts = [
      '',
      ' ',
      'x',
      'RUG RUG RUG RUG RUG!!!!!!',
      'moon '.repeat(500),
      'not not not bearish',
      ':) :( <3',
      '💀'.repeat(200),
      '\t\r\n',
      '$$$ ### @@@',
    ];

    it('when any text is scored, then the result is a number in [-1, 1] with 4 decimals', () => {
      for (const text of texts) {
        const score = scorePolarity(text);
        expect(score, text).to.be.within(-1, 1);
        expect(Number(score.toFixed(4)), text).to.equal(score);
      }
      expect(scorePolarity('')).to.equal(0);
    });

    it('when texts are scored in any order, then each gets the same score', () => {
      const forward = texts.map((text) => scorePolarity(text));
      const backward = [...texts]
        .reverse()
        .map((text) => scorePolarity(text))
        .reverse();
      expect(backward).to.deep.equal(forward);
    });

    it('when crypto posts have been scored, then the library itself is unchanged', () => {
      scorePolarity('mooning rekt wagmi');
      expect(vaderAnalyzer.polarity_scores('mooning rekt wagmi').compound).to.equal(0);
    });
  });
});
