import { expect } from 'chai';
import { lexiconLean, lexiconTokens } from '../../../apps/worker/src/sentiment/trader-lexicon.js';

describe('trader lexicon', () => {
  it('when a post is tokenized, then tickers, links, mentions, amounts and numbers become the tags the lexicon was built with', () => {
    expect(lexiconTokens('$BTC.X to 20000 or $25k? ask @bob https://x.co/a')).to.deep.equal([
      'cashtag',
      'to',
      'numbertag',
      'or',
      'moneytag',
      '?',
      'ask',
      'usertag',
      'linktag',
    ]);
  });

  it("when a negator comes before a word, then the word is marked negtag_ and the negator dropped; apostrophes read as '’'", () => {
    expect(lexiconTokens("Not selling, don't panic")).to.deep.equal(['negtag_selling', 'don’t', 'panic']);
  });

  it('when a post holds emoji, then each is a token of its own', () => {
    expect(lexiconTokens('moon 🚀🚀!')).to.deep.equal(['moon', '🚀', '🚀', '!']);
  });

  it("when the post holds the lexicon's words and pairs, then its lean is their mean; none found: undefined", () => {
    const lexicon = new Map([
      ['hold', 0.5],
      ['hold strong', 0.9],
      ['negtag_selling', 0.7],
      ['dump', -0.8],
    ]);
    expect(lexiconLean(lexicon, 'Hold strong, not selling')).to.be.closeTo((0.5 + 0.9 + 0.7) / 3, 1e-12);
    expect(lexiconLean(lexicon, 'dump it')).to.equal(-0.8);
    expect(lexiconLean(lexicon, 'selling')).to.equal(undefined);
  });
});
