/**
 * The scorer against plain `vader-sentiment`, both measured in the same run: on the human-rated
 * tweets (general English) it must not lose to VADER, on Pearson r or on 3-class accuracy, and the
 * crypto rules must not lose the crypto posts they were added for.
 *
 * Figures before this gate (main at 96791df, `npm run sentiment:eval`): tweets-dev r 0.8826 /
 * accuracy 0.9100 against VADER's 0.8830 / 0.9129. Correct crypto posts then: crypto-dev 14,548 of
 * 14,993; held-out b 147/150, c 141/150, d 139/148, e 145/148, i 139/150. Training the learned
 * layer on 4,352 real author-tagged posts as well (issue 30: real posts 0.51 -> 0.73 in
 * cross-validation) cost a few of these generated posts: crypto-dev 14,546, b 146, c 137, e 143
 * (d and i unchanged). A stance model trained on the tagged posts beside the learned layer
 * (issue 30: 5-fold cross-validation 0.734 -> 0.743, dev 0.717 -> 0.720) moved crypto-dev, which the
 * layer trains on, from 14,546 to 14,514 (-0.2 %) while the held-out sets kept or gained posts
 * (c 137 -> 138, e 143 -> 144). The floors below are today's counts.
 */
import { expect } from 'chai';
import { evaluate } from '../../../dev/sentiment-evaluation.js';
import { scorePolarity } from '../../../apps/worker/src/sentiment/score.js';
import { vaderAnalyzer } from '../../../apps/worker/src/sentiment/vader-library.js';
import { cryptoSet, heldoutSets, tweetsDev } from './fixtures.js';

const score = (text: string): number => scorePolarity(text);
const plainVader = (text: string): number => vaderAnalyzer.polarity_scores(text).compound;

/** Correct posts per crypto set (see above). */
const CRYPTO_CORRECT_BEFORE: Readonly<Record<string, number>> = {
  'crypto-dev': 14514,
  'crypto-heldout-b': 146,
  'crypto-heldout-c': 138,
  'crypto-heldout-d': 139,
  'crypto-heldout-e': 144,
  'crypto-heldout-i': 139,
};

describe('sentiment against plain VADER', () => {
  it('when both score the human-rated tweets, then the scorer matches or beats VADER on r and on accuracy', () => {
    const tweets = tweetsDev();
    const ours = evaluate(tweets, score);
    const vader = evaluate(tweets, plainVader);
    expect(ours.count).to.equal(2100);
    const figures =
      `scorer r ${ours.pearson.toFixed(4)} acc ${ours.accuracy.toFixed(4)}, ` +
      `vader r ${vader.pearson.toFixed(4)} acc ${vader.accuracy.toFixed(4)}`;
    expect(ours.pearson, figures).to.be.at.least(vader.pearson);
    expect(ours.accuracy, figures).to.be.at.least(vader.accuracy);
  });

  for (const name of ['crypto-dev', ...heldoutSets()]) {
    it(`when scoring ${name}, then no fewer posts are right than before`, () => {
      const floor = CRYPTO_CORRECT_BEFORE[name];
      if (floor === undefined) throw new Error(`no recorded figure for ${name}`);
      const result = evaluate(cryptoSet(name), score, false);
      // The misses stay out of the message: held-out sets must not be read.
      expect(result.count - result.misses.length).to.be.at.least(floor);
    });
  }
});
