/**
 * Quality gates for the polarity scorer (not speed). Figures at the time of writing:
 * tweets-dev r 0.8828 / accuracy 0.9124 (plain vader-sentiment 0.8830 / 0.9129), crypto-dev
 * 0.9701 (plain 0.6269), crypto-heldout 0.8636 (plain 0.7121). `npx tsx scripts/eval-sentiment.ts`.
 */
import { expect } from 'chai';
import { evaluate } from '../../../shared/sentiment/evaluation.js';
import { scorePolarity } from '../../../shared/sentiment/score.js';
import { vaderAnalyzer } from '../../../shared/sentiment/vader-library.js';
import { cryptoSet, tweetsDev } from './fixtures.js';

const score = (text: string): number => scorePolarity(text);
const plainVader = (text: string): number => vaderAnalyzer.polarity_scores(text).compound;

describe('sentiment quality', () => {
  it('when scoring the human-rated tweets, then r >= 0.88 and 3-class accuracy >= 0.89', () => {
    const result = evaluate(tweetsDev(), score);
    expect(result.count).to.equal(2100);
    expect(result.pearson).to.be.at.least(0.88);
    expect(result.accuracy).to.be.at.least(0.89);
  });

  it('when scoring the crypto dev set, then 3-class accuracy >= 0.93', () => {
    const result = evaluate(cryptoSet('crypto-dev'), score, false);
    expect(result.count).to.be.at.least(120);
    expect(result.accuracy, JSON.stringify(result.misses, null, 1)).to.be.at.least(0.93);
  });

  // Never tuned on, so its gate is looser than dev's. With 66 posts one post is 1.5 points and
  // the standard error of the measured 0.86 is about 0.04: 0.80 (at most 13 wrong) leaves room
  // for a post or two of drift from future vocabulary changes, while still failing if the
  // crypto extension stops generalising (plain VADER scores 0.71 here).
  it('when scoring the held-out crypto set, then accuracy >= 0.80 and 0.10 above plain VADER', () => {
    const heldout = cryptoSet('crypto-heldout');
    const result = evaluate(heldout, score, false);
    const baseline = evaluate(heldout, plainVader, false);
    expect(result.count).to.be.at.least(60);
    expect(result.accuracy).to.be.at.least(0.8);
    expect(result.accuracy - baseline.accuracy).to.be.at.least(0.1);
  });
});
