import { expect } from 'chai';
import { normalizePost } from '../../../apps/worker/src/sentiment/normalize.js';

/** Collapses the spacing normalising leaves behind, to compare words. */
function words(text: string, tickers?: ReadonlySet<string>): string {
  return normalizePost(text, tickers).trim().split(/\s+/).join(' ');
}

describe('normalizePost', () => {
  it('when a post has cashtags, then they are removed whatever their case', () => {
    expect(words('$SOL and $love and $Pepe up')).to.equal('and and up');
  });

  it('when a well-known ticker is written in capitals, then it is removed', () => {
    expect(words('BTC and ETH/BTC ratio')).to.equal('and / ratio');
  });

  it('when the caller names tickers, then those words are removed in capitals only', () => {
    expect(words('WIN listed, win big', new Set(['WIN']))).to.equal('listed, win big');
    expect(words('WIN listed')).to.equal('WIN listed');
  });

  it('when a post uses a multi-word idiom, then it becomes one lexicon token', () => {
    expect(words('to the moon')).to.equal('tothemoon');
    expect(words('classic rug-pull, new all-time high')).to.equal('classic rugpull, new ath');
    expect(words('I aped into it and bought the dip')).to.equal('I apedin it and buythedip');
    expect(words('pump and dump')).to.equal('pumpanddump');
    expect(words('shorts getting liquidated')).to.equal('shortsqueeze');
    expect(words('up 25% today, down 5% yesterday, easy 10x')).to.equal('priceup today, pricedown yesterday, easy xgain');
  });

  it('when a negated phrase is an idiom of its own, then it becomes one token', () => {
    expect(words('never selling, not selling, won’t sell')).to.equal('notselling, notselling, notselling');
    expect(words("can't believe it, no signs of a rug")).to.equal('cantbelieve it, not a rug');
    expect(words('it does not sell shoes')).to.equal('it does not sell shoes');
  });

  it('when a question asks for a pick, then only the words after the asking word are dropped', () => {
    expect(words('Great, which wallet is best?')).to.equal('Great, which wallet is ?');
    expect(words('Which wallet is best. Great')).to.equal('Which wallet is best. Great');
  });

  it('when an idiom is written in capitals, then the token keeps the capitals', () => {
    expect(words('ALL TIME HIGH')).to.equal('ATH');
  });

  it('when slang is an acronym, then its conventional capitals are not read as emphasis', () => {
    expect(words('LFG new ATH, WAGMI')).to.equal('lfg new ath, wagmi');
  });

  it('when jargon contains general sentiment words, then it becomes a neutral token', () => {
    expect(words('impermanent loss and open interest')).to.equal('impermanentloss and openinterest');
  });

  it('when a post has emoji, then they become separate word tokens', () => {
    expect(words('moon🚀🚀 ❤️ 👍🏽')).to.equal('moon emoji_rocket emoji_rocket emoji_heart emoji_thumbsup');
  });

  it('when a phone typed a curly apostrophe, then negations use the plain one', () => {
    expect(words('don’t')).to.equal("don't");
  });

  it('when "never been more" precedes a word, then it reads as emphasis', () => {
    expect(words('never been more bullish')).to.equal('been extremely bullish');
  });
});
