/**
 * Quality gates for the polarity scorer (not speed). Figures at the time of writing
 * (`npm run sentiment:eval`): tweets-dev r 0.8826 / accuracy 0.9100 (plain vader-sentiment
 * 0.8830 / 0.9129). crypto-dev (14,993 posts) is the learned layer's training set, so its 0.9733
 * is in-sample. Held-out, written by five authors who never saw the scorer, committed at fa0cda3
 * before anything scored them, and scored once at 6b90141: r 0.880, s 0.940 (149), t 0.893, u 0.953,
 * v 0.940; 0.921 over all 749 posts (plain VADER 0.484; the rules alone, at 29cbbf1, 0.812).
 * Earlier held-out sets were scored once and then folded into crypto-dev (see its history).
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

  // In-sample (the learned layer trains on it): guards that the committed weights fit their data.
  it('when scoring the crypto dev set, then 3-class accuracy >= 0.93', () => {
    const result = evaluate(cryptoSet('crypto-dev'), score, false);
    expect(result.count).to.be.at.least(7000);
    expect(result.accuracy, JSON.stringify(result.misses, null, 1)).to.be.at.least(0.93);
  });

  // Held-out sets (HELDOUT_SETS in fixtures.ts): never tuned on, so these are the only figures that
  // say how the scorer does on unseen posts. The issue asks for 0.93; these sets measured 0.88 to
  // 0.95 (0.921 together), so the floors below guard against regression, they are not the target.
  // The assertion messages leave the misses out on purpose: reading them would spend the sets.
  const sets = heldoutSets();
  for (const name of sets) {
    it(`when scoring the held-out set ${name}, then accuracy holds its floor, far above plain VADER`, () => {
      const heldout = cryptoSet(name);
      const result = evaluate(heldout, score, false);
      const baseline = evaluate(heldout, plainVader, false);
      expect(result.count).to.be.at.least(100);
      expect(result.accuracy).to.be.at.least(0.85);
      expect(result.accuracy - baseline.accuracy).to.be.at.least(0.35);
    });
  }

  it('when scoring all held-out sets together, then accuracy holds its floor of 0.90', function () {
    if (sets.length === 0) this.skip();
    const posts = sets.flatMap((name) => cryptoSet(name));
    expect(evaluate(posts, score, false).accuracy).to.be.at.least(0.9);
  });
});
