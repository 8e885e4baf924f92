/**
 * Quality gates for the polarity scorer (not speed). Figures at the time of writing:
 * tweets-dev r 0.8836 / accuracy 0.9110 (plain vader-sentiment 0.8830 / 0.9129), crypto-dev
 * (2,282 posts, several authors) 0.9842 (plain 0.5250). Held-out, each set scored once, at 6dc79d2:
 * g 0.825, h 0.833, j 0.758 (feeds), m 0.900, n 0.913 (written to the brief); 0.852 over
 * all 660 posts (plain 0.52). Earlier held-out sets, scored once and then folded into crypto-dev:
 * 0.70, 0.775, 0.925 (feed-1 and feed-2), 0.915 (feed-3 and feed-4).
 * `npm run sentiment:eval`.
 */
import { expect } from 'chai';
import { evaluate } from '../../../shared/sentiment/evaluation.js';
import { scorePolarity } from '../../../shared/sentiment/score.js';
import { vaderAnalyzer } from '../../../shared/sentiment/vader-library.js';
import { cryptoSet, heldoutSets, tweetsDev } from './fixtures.js';

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
    expect(result.count).to.be.at.least(1400);
    expect(result.accuracy, JSON.stringify(result.misses, null, 1)).to.be.at.least(0.93);
  });

  // Held-out sets (HELDOUT_SETS in fixtures.ts): never tuned on, so this is the only figure that
  // says how the scorer does on unseen posts. The issue asks for 0.93; these sets measured 0.76 to
  // 0.91 (0.852 together), so 0.72 is a regression floor, not the target. The assertion message
  // leaves the misses out on purpose: reading them would spend the set.
  for (const name of heldoutSets()) {
    it(`when scoring the held-out set ${name}, then accuracy holds its floor, well above plain VADER`, () => {
      const heldout = cryptoSet(name);
      const result = evaluate(heldout, score, false);
      const baseline = evaluate(heldout, plainVader, false);
      expect(result.count).to.be.at.least(100);
      expect(result.accuracy).to.be.at.least(0.72);
      expect(result.accuracy - baseline.accuracy).to.be.at.least(0.25);
    });
  }
});
