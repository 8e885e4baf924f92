/**
 * Quality gates for the polarity scorer (not speed). Figures at the time of writing:
 * tweets-dev r 0.8829 / accuracy 0.9129 (plain vader-sentiment 0.8830 / 0.9129), crypto-dev
 * (242 posts) 0.9959 (plain 0.6281), crypto-heldout (90 posts) 0.7000 (plain 0.5667).
 * `npm run sentiment:eval`.
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

  // Never tuned on: written blind and scored once (commit a75655c), 0.70. That is below the
  // issue's 0.93, which this scorer does not meet on unseen posts; the gate only catches a
  // regression: 0.65 (at most 31 of 90 wrong, 27 measured) and the margin over plain VADER
  // (0.13 measured). Its misses were read to report why, so a further tuning round must fold
  // it into dev and write a new held-out set.
  it('when scoring the held-out crypto set, then accuracy >= 0.65 and 0.10 above plain VADER', () => {
    const heldout = cryptoSet('crypto-heldout');
    const result = evaluate(heldout, score, false);
    const baseline = evaluate(heldout, plainVader, false);
    expect(result.count).to.be.at.least(80);
    expect(result.accuracy).to.be.at.least(0.65);
    expect(result.accuracy - baseline.accuracy).to.be.at.least(0.1);
  });
});
