import { expect } from 'chai';
import {
  confidenceOf,
  engagementWeight,
  labelFor,
  memoizedScorer,
  scorePost,
  summarizeSentiment,
  type PostScorer,
  type ScoredPost,
} from '../../../apps/worker/src/sentiment/aggregate.js';
import { scorePolarity } from '../../../apps/worker/src/sentiment/score.js';
import { cryptoSet } from './fixtures.js';

const BULLISH = '$SOL is mooning, wagmi';
const BEARISH = '$SOL got rugged, total scam';
const NEUTRAL = '$SOL validator count is now over 1,500';

function post(text: string, tokens: string[], engagementScore = 0, author = 'someone'): ScoredPost {
  return { text, tokens, engagementScore, author };
}

describe('labelFor', () => {
  it('when the score is at or beyond ±0.15, then it is bullish or bearish (inclusive)', () => {
    expect(labelFor(0.15)).to.equal('bullish');
    expect(labelFor(1)).to.equal('bullish');
    expect(labelFor(-0.15)).to.equal('bearish');
    expect(labelFor(-1)).to.equal('bearish');
  });

  it('when the score is strictly inside ±0.15, then it is neutral', () => {
    for (const score of [0.1499, 0, -0.1499]) expect(labelFor(score)).to.equal('neutral');
  });
});

describe('engagementWeight', () => {
  it('when engagement is 0, negative or not a number, then the post still weighs 1', () => {
    for (const engagement of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(engagementWeight(engagement)).to.equal(1);
    }
  });

  it('when engagement grows, then the weight grows logarithmically', () => {
    expect(engagementWeight(10)).to.be.greaterThan(engagementWeight(1));
    expect(engagementWeight(10_000)).to.be.closeTo(1 + Math.log(10_001), 1e-12);
    expect(engagementWeight(10_000)).to.be.lessThan(11);
  });
});

describe('summarizeSentiment', () => {
  it('when there are no posts, then the summary is empty', () => {
    expect(summarizeSentiment([]).size).to.equal(0);
  });

  it('when posts mention a token, then score is the engagement-weighted mean polarity', () => {
    const posts = [post(BULLISH, ['SOL'], 1000), post(BEARISH, ['SOL'], 0)];
    const [up, down] = [scorePolarity(BULLISH), scorePolarity(BEARISH)];
    const [wUp, wDown] = [engagementWeight(1000), engagementWeight(0)];
    const expected = Math.round(((wUp * up + wDown * down) / (wUp + wDown)) * 10_000) / 10_000;
    const sol = summarizeSentiment(posts).get('SOL');
    expect(sol?.score).to.equal(expected);
    expect(sol?.score).to.be.greaterThan((up + down) / 2);
  });

  it('when posts fall in each polarity class, then counts and mentions add up', () => {
    const posts = [post(BULLISH, ['SOL']), post(BULLISH, ['SOL']), post(BEARISH, ['SOL']), post(NEUTRAL, ['SOL'])];
    expect(summarizeSentiment(posts).get('SOL')).to.deep.include({
      token: 'SOL',
      mentions: 4,
      positive: 2,
      neutral: 1,
      negative: 1,
    });
  });

  it('when tokens come in any case or with "$", then they share one upper-case key', () => {
    const posts = [post(BULLISH, ['sol']), post(BEARISH, ['$Sol']), post(NEUTRAL, ['SOL', '$sol'])];
    const summary = summarizeSentiment(posts);
    expect([...summary.keys()]).to.deep.equal(['SOL']);
    expect(summary.get('SOL')?.mentions).to.equal(3);
  });

  it('when a post mentions several tokens, then each token counts it once', () => {
    const summary = summarizeSentiment([post(BEARISH, ['SOL', 'ETH'], 5)]);
    expect(summary.get('SOL')?.score).to.equal(summary.get('ETH')?.score);
    expect(summary.get('ETH')).to.deep.include({ mentions: 1, negative: 1, label: 'bearish' });
  });

  it("when a post's own ticker is an English word, then it is neutral in that post", () => {
    expect(summarizeSentiment([post('WIN listed on Binance', ['WIN'])]).get('WIN')).to.deep.include({
      score: 0,
      label: 'neutral',
      neutral: 1,
    });
  });

  it('when a post mentions no tokens, then it is not counted anywhere', () => {
    expect(summarizeSentiment([post(BULLISH, [])]).size).to.equal(0);
  });

  it('when the mean is bullish, bearish or mixed, then the label follows docs/decisions.md#d2', () => {
    const summary = summarizeSentiment([post(BULLISH, ['UP']), post(BEARISH, ['DOWN']), post(NEUTRAL, ['FLAT'])]);
    expect(summary.get('UP')?.label).to.equal('bullish');
    expect(summary.get('DOWN')?.label).to.equal('bearish');
    expect(summary.get('FLAT')?.label).to.equal('neutral');
  });

  // Its speed is measured by `npm run sentiment:eval` and the bench's worker refresh, not here.
  it('when 10,000 posts mention two tokens each, then every mention is counted once', () => {
    const texts = cryptoSet('crypto-dev').map((item) => item.text);
    const posts = Array.from({ length: 10_000 }, (_, i) =>
      post(texts[i % texts.length] ?? '', ['BTC', i % 2 === 0 ? 'ETH' : 'SOL'], i % 700),
    );
    const summary = summarizeSentiment(posts);
    expect(summary.get('BTC')?.mentions).to.equal(10_000);
    expect(summary.get('ETH')?.mentions).to.equal(5_000);
    expect(summary.get('SOL')?.mentions).to.equal(5_000);
  });
});

describe('sample and confidence', () => {
  const authored = (text: string, count: number, authors: number): ScoredPost[] =>
    Array.from({ length: count }, (_, i) => post(text, ['SOL'], 0, `author${i % authors}`));

  it('when one author posts many bullish posts, then the sample says one author and confidence stays under 0.1', () => {
    const sol = summarizeSentiment(authored(BULLISH, 50, 1)).get('SOL');
    expect(sol).to.deep.include({ label: 'bullish', sample: { posts: 50, authors: 1 } });
    expect(sol?.confidence).to.be.greaterThan(0).and.at.most(0.09);
  });

  it('when many authors agree, then confidence is high; when a third disagree, it is lower', () => {
    const agreeing = summarizeSentiment(authored(BULLISH, 300, 120)).get('SOL');
    expect(agreeing).to.deep.include({ label: 'bullish', sample: { posts: 300, authors: 120 } });
    expect(agreeing?.confidence).to.equal(0.92);
    const split = summarizeSentiment([
      ...authored(BULLISH, 80, 80),
      ...authored(BEARISH, 40, 40).map((p, i) => ({ ...p, author: `bear${i}` })),
    ]).get('SOL');
    expect(split?.label).to.equal('bullish');
    expect(split?.confidence).to.be.lessThan(agreeing?.confidence ?? 0);
    expect(split?.confidence).to.equal(Math.round((80 / 120) * (120 / 130) * 100) / 100);
  });

  it('when an author posts both ways, then their posts make one vote, the class of their mean', () => {
    const mixed = [
      post(BULLISH, ['SOL'], 0, 'a'),
      post(BULLISH, ['SOL'], 0, 'a'),
      post(BEARISH, ['SOL'], 0, 'a'),
      post(BEARISH, ['SOL'], 0, 'b'),
    ];
    const sol = summarizeSentiment(mixed).get('SOL');
    expect(sol?.sample).to.deep.equal({ posts: 4, authors: 2 });
    const meanOfA = (2 * scorePolarity(BULLISH) + scorePolarity(BEARISH)) / 3;
    expect(sol?.confidence).to.equal(confidenceOf(sol?.label ?? 'neutral', [meanOfA, scorePolarity(BEARISH)]));
    // Counted per post instead, two of four would agree with either side.
    expect(confidenceOf('bullish', [meanOfA, scorePolarity(BEARISH)])).to.equal(Math.round(0.5 * (2 / 12) * 100) / 100);
  });

  it('when the label is neutral, then a balanced crowd supports it and a one-sided one does not', () => {
    expect(confidenceOf('neutral', [0.5, -0.5, 0.4, -0.4])).to.equal(Math.round((4 / 14) * 100) / 100);
    expect(confidenceOf('neutral', [0.5, 0.5, 0.4, 0.4])).to.equal(0);
    expect(confidenceOf('bullish', [])).to.equal(0);
  });
});

describe('memoizedScorer', () => {
  function counting(): { score: PostScorer; calls: () => number } {
    let calls = 0;
    return {
      score: (text, tickers) => {
        calls += 1;
        return scorePost(text, tickers);
      },
      calls: () => calls,
    };
  }

  it('when posts are summarized through it, then the records are the same as without it', () => {
    const posts = cryptoSet('crypto-dev')
      .slice(0, 300)
      .map((item, i) => post(item.text, [['BTC'], ['ETH', 'SOL'], ['$win']][i % 3] ?? [], i));
    const memo = memoizedScorer(100);
    expect(summarizeSentiment(posts, memo)).to.deep.equal(summarizeSentiment(posts));
    expect(summarizeSentiment(posts, memo)).to.deep.equal(summarizeSentiment(posts));
  });

  it('when a post comes again with the same tickers, then it is not scored again', () => {
    const { score, calls } = counting();
    const memo = memoizedScorer(10, score);
    memo(BULLISH, new Set(['SOL']));
    memo(BULLISH, new Set(['SOL']));
    expect(calls()).to.equal(1);
    memo(BULLISH, new Set(['WIN', 'SOL']));
    expect(calls()).to.equal(2);
  });

  it('when more posts come than it holds, then the least recently used are forgotten', () => {
    const { score, calls } = counting();
    const memo = memoizedScorer(2, score);
    const sol = new Set(['SOL']);
    memo('a', sol);
    memo('b', sol);
    memo('a', sol);
    memo('c', sol);
    expect(calls()).to.equal(3);
    memo('a', sol);
    expect(calls()).to.equal(3);
    memo('b', sol);
    expect(calls()).to.equal(4);
  });
});
