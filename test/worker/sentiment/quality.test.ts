/**
 * Quality gates for the polarity scorer (not speed). Figures at the time of writing
 * (`npm run sentiment:eval`): tweets-dev r 0.8841 / accuracy 0.9129 (plain vader-sentiment
 * 0.8830 / 0.9129; versus-vader.test.ts holds the scorer to VADER's).
 *
 * The learned layer trains on crypto-dev (14,993 generated posts, so its 0.930 is in-sample) and on
 * 4,352 real StockTwits posts tagged by their authors, kept outside the repository (see
 * dev/train-sentiment.ts): their cross-validation table is in docs/decisions.md#d2
 * (`npm run sentiment:cv -- train.tsv dev.tsv`). Training on real posts cost the generated
 * held-out sets a point (0.953 -> 0.944 over 746 posts): the model takes a side more readily.
 *
 * Held-out generated sets, written by five authors who never saw the scorer, committed at 14699f2
 * before anything scored them, and scored once at d8e5125: then 0.953 over all 746 posts (plain
 * VADER 0.477). Earlier held-out sets were scored once and folded into training.
 */
import { expect } from 'chai';
import { evaluate } from '../../../dev/sentiment-evaluation.js';
import { polarityClass, scorePolarity, type PolarityClass } from '../../../apps/worker/src/sentiment/score.js';
import { vaderAnalyzer } from '../../../apps/worker/src/sentiment/vader-library.js';
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
  // say how the scorer does on unseen posts. The issue asks for 0.93; together they read 0.953,
  // each set 0.927 to 0.980 (150 posts give about ±2 points of noise per set). The assertion
  // messages leave the misses out on purpose: reading them would spend the sets.
  const sets = heldoutSets();
  for (const name of sets) {
    it(`when scoring the held-out set ${name}, then accuracy holds its floor, far above plain VADER`, () => {
      const heldout = cryptoSet(name);
      const result = evaluate(heldout, score, false);
      const baseline = evaluate(heldout, plainVader, false);
      expect(result.count).to.be.at.least(100);
      expect(result.accuracy).to.be.at.least(0.9);
      expect(result.accuracy - baseline.accuracy).to.be.at.least(0.35);
    });
  }

  // Written for this test in a trader's words (no post of the tagged sets is in the repository).
  const STANCES: ReadonlyArray<readonly [PolarityClass, string]> = [
    ['positive', '$ETH loading more under 1,100, this is the bottom'],
    ['positive', '$BTC.X shorts are trapped, squeeze incoming'],
    ['positive', '$BTC.X golden cross on the daily, see you at 30k'],
    ['positive', '$SOL accumulating, devs keep shipping'],
    ['negative', '$BTC.X head and shoulders on the 4h, next stop 17k'],
    ['negative', '$ETH.X bulls are getting destroyed, bye bye'],
    ['negative', '$BTC.X this dead cat bounce will fail again'],
    ['negative', '$ETH dumping to 800, sold everything'],
    ['neutral', 'Uniswap governance call tomorrow at 4pm UTC'],
    ['neutral', '$SOL validator count is now over 1,500'],
  ];
  it('when a post takes a side without stance words, then it gets that side; when it says nothing either way, neutral', () => {
    for (const [expected, text] of STANCES) expect(polarityClass(scorePolarity(text)), text).to.equal(expected);
  });

  it('when scoring all held-out sets together, then 3-class accuracy >= 0.93', function () {
    if (sets.length === 0) this.skip();
    const posts = sets.flatMap((name) => cryptoSet(name));
    expect(posts.length).to.be.at.least(700);
    expect(evaluate(posts, score, false).accuracy).to.be.at.least(0.93);
  });
});
