import { expect } from 'chai';
import { compoundPolarity, wordsAndEmoticons } from '../../../apps/worker/src/sentiment/vader-engine.js';
import { loadVaderLexicon, vaderAnalyzer } from '../../../apps/worker/src/sentiment/vader-library.js';
import { cryptoSet, tweetsDev } from './fixtures.js';

const plain = { lexicon: loadVaderLexicon(), foldCase: false, clauseScope: false };

const TRICKY = [
  'cat!!',
  'good!!!!',
  '.good.',
  '!!',
  ':)',
  ':-) good',
  "don't, good",
  "'good'",
  '"great"',
  'good...',
  '-bad-',
  '?!?good',
  'good?!?!',
  '(good)',
  'good:)',
  'love,hate',
  '#love',
  '@love',
  '$love',
  'NOT good but BAD',
  'GOOD!!! but bad...',
  'kind of good',
  'the shit is good',
  'at least good',
  'least good',
  'never so good',
  'x',
  '',
  '   ',
  'I ... love',
  'good :( bad',
];

describe('VADER engine', () => {
  it('when given the library lexicon and plain rules, then it reproduces vader-sentiment exactly', () => {
    const texts = [...tweetsDev(), ...cryptoSet('crypto-dev')].map((item) => item.text).concat(TRICKY);
    const different = texts.filter((text) => compoundPolarity(text, plain) !== vaderAnalyzer.polarity_scores(text).compound);
    expect(different).to.deep.equal([]);
  });

  it('when a word carries one punctuation mark at an edge, then the mark is dropped', () => {
    expect(wordsAndEmoticons('Wow, cat!! (dog) :) a x yes?!?')).to.deep.equal(['Wow', 'cat', '(dog)', ':)', 'yes']);
  });

  it('when the lexicon is extended, then the new words score and modifiers apply to them', () => {
    const lexicon = new Map([...plain.lexicon, ['mooning', 2.8]]);
    const rules = { ...plain, lexicon };
    expect(compoundPolarity('mooning', rules)).to.be.greaterThan(0);
    expect(compoundPolarity('not mooning', rules)).to.be.lessThan(0);
    expect(compoundPolarity('very mooning', rules)).to.be.greaterThan(compoundPolarity('mooning', rules));
    expect(vaderAnalyzer.polarity_scores('mooning').compound).to.equal(0);
  });

  it('when wide negation is on for a word, then a negator up to the span back flips it', () => {
    const lexicon = new Map([...plain.lexicon, ['moon', 2]]);
    const text = "don't think it will ever moon";
    expect(compoundPolarity(text, { ...plain, lexicon })).to.be.greaterThan(0);
    const wide = { ...plain, lexicon, clauseScope: true, wideNegation: { words: new Set(['moon']), span: 6 } };
    expect(compoundPolarity(text, wide)).to.be.lessThan(0);
    expect(compoundPolarity("don't think it will ever, moon", wide)).to.be.greaterThan(0);
    expect(compoundPolarity('no moon', wide)).to.be.lessThan(0);
    // "no" reaches two words, except "no way", which negates its clause.
    expect(compoundPolarity('no fud here then moon', wide)).to.be.greaterThan(compoundPolarity('no fud here then no moon', wide));
    expect(compoundPolarity('no way it will moon', wide)).to.be.lessThan(0);
    // Two negators cancel.
    expect(compoundPolarity("don't think it won't moon", wide)).to.be.greaterThan(0);
    expect(compoundPolarity("don't trust this moon", { ...plain, lexicon })).to.be.greaterThan(0);
    expect(compoundPolarity("don't trust this moon", wide)).to.be.lessThan(0);
  });

  it('when clause scope is on, then a negation does not reach past a comma', () => {
    const text = "don't stop, great";
    expect(compoundPolarity(text, plain)).to.be.lessThan(0);
    expect(compoundPolarity(text, { ...plain, clauseScope: true })).to.be.greaterThan(0);
  });
});
