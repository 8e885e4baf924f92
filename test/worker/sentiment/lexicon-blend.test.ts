/**
 * The trader-lexicon combination (`lexicon-blend.ts`) on complaint-style comments, the kind people
 * write in discussion rather than traders' tagged calls. Every text here was written for this test.
 */
import { expect } from 'chai';
import { blendedPolarity, LEXICON_BLEND } from '../../../apps/worker/src/sentiment/lexicon-blend.js';
import { plainVaderPolarity, polarityClass, scorePolarity } from '../../../apps/worker/src/sentiment/score.js';

const classOf = (text: string, blend?: false): string => polarityClass(scorePolarity(text, blend === false ? { blend } : undefined));

describe('sentiment: the trader lexicon beside the learned layer', () => {
  it('when a market comment complains in words the model is torn on, then the lexicon makes it bearish', () => {
    const text = 'ETH is outdated and overpriced';
    expect(classOf(text, false), 'the learned layer alone').to.equal('neutral');
    expect(classOf(text)).to.equal('negative');
  });

  it('when a comment complains about an exchange or a coin, then it reads bearish, with or without a ticker', () => {
    for (const text of [
      'this exchange froze my withdrawals again, what a scam',
      'Coinbase locked my account for no reason, terrible exchange',
      'another hack on a bridge, crypto security is a joke',
      'the token crashed and the devs went silent',
    ]) {
      expect(classOf(text), text).to.equal('negative');
    }
  });

  it("when a torn post holds only everyday words, then their bullish lean (the lexicon's base rate) does not make it bullish", () => {
    expect(classOf('ETH gas ate half my deposit again')).to.not.equal('positive');
    expect(classOf('SOL went offline again today')).to.not.equal('positive');
  });

  describe('money talk in everyday words', () => {
    it('when a comment trades in words VADER has no polarity for, then the learned layer takes its side', () => {
      expect(classOf('Bought a few more this week and holding')).to.equal('positive');
      expect(polarityClass(scorePolarity('Bought a few more this week and holding', { moneyTalk: false })), 'VADER alone').to.equal(
        'neutral',
      );
      expect(classOf('Sold it all last night')).to.equal('negative');
      expect(classOf('They keep printing money out of thin air')).to.equal('negative');
    });

    it('when money talk states a plain fact, then it stays neutral', () => {
      expect(classOf('The bank opens at nine on Saturdays')).to.equal('neutral');
      expect(classOf('Prices at the farmers market were the same as last week')).to.equal('neutral');
    });

    it('when VADER reads a side in it, then its reading is kept', () => {
      expect(scorePolarity('It is not worth the money')).to.equal(plainVaderPolarity('It is not worth the money'));
    });
  });

  describe('the combination alone', () => {
    const torn = [0.3, 0.5, 0.2] as const;
    const sure = [0.05, 0.9, 0.05] as const;
    const bullish = [0.2, 0.1, 0.7] as const;

    it('when the model is sure a post is neutral, then it stays neutral whatever the lexicon says', () => {
      expect(blendedPolarity(LEXICON_BLEND, 0, sure, -0.8, 'none')).to.equal(0);
    });

    it('when the model is torn and the lexicon leans bearish, then bearish; leaning bullish or finding nothing, neutral', () => {
      expect(blendedPolarity(LEXICON_BLEND, 0, torn, -0.5, 'none')).to.be.at.most(-0.05);
      expect(blendedPolarity(LEXICON_BLEND, 0, torn, 0.7, 'none')).to.equal(0);
      expect(blendedPolarity(LEXICON_BLEND, 0, torn, undefined, 'none')).to.equal(0);
    });

    it('when a weak side disagrees with a strong lean, then the lean wins, unless a negated market stance word set the side', () => {
      expect(blendedPolarity(LEXICON_BLEND, 0.1, bullish, -0.6, 'none')).to.be.at.most(-0.05);
      expect(blendedPolarity(LEXICON_BLEND, 0.1, bullish, -0.6, 'plain')).to.be.at.most(-0.05);
      expect(blendedPolarity(LEXICON_BLEND, 0.1, bullish, -0.6, 'negated')).to.equal(0.1);
    });

    it('when the scorer takes a side strongly, then the lexicon cannot overturn it', () => {
      expect(blendedPolarity(LEXICON_BLEND, 0.6, bullish, -0.9, 'none')).to.equal(0.6);
    });

    it('when text without a cashtag has weights of its own, then they decide it, and text with one keeps the others', () => {
      const perSource = { ...LEXICON_BLEND, withoutCashtag: { scorer: 1, lexicon: 0, bias: -1 } };
      expect(blendedPolarity(perSource, 0.1, bullish, 0.6, 'none', false)).to.be.at.most(-0.05);
      expect(blendedPolarity(perSource, 0.1, bullish, 0.6, 'none', true)).to.equal(0.1);
      expect(blendedPolarity(LEXICON_BLEND, 0.1, bullish, 0.6, 'none', false)).to.equal(0.1);
    });
  });
});
