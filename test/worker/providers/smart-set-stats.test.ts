import { expect } from 'chai';
import fc from 'fast-check';
import { setPostsFromHeld, smartSetStats, type SetAccount, type SetPost } from '../../../apps/worker/src/providers/smart-set-stats.js';
import type { NewsItem } from '../../../shared/market-types.js';

const account = (key: string, followers: number | null, postsRead = true, external?: SetAccount['external']): SetAccount => ({
  key,
  followers,
  postsRead,
  external,
});
const post = (
  authorKey: string,
  engagement: number,
  references: Partial<Pick<SetPost, 'mentions' | 'repliesTo' | 'quotes' | 'tokens'>> = {},
): SetPost => ({
  authorKey,
  engagement,
  tokens: [],
  mentions: [],
  ...references,
});

describe('the stats of the tracked set (indexScore, smartMoneyRank: docs/providers.md, "Stats")', () => {
  it('when every account posts alike and nobody refers to anyone, then distinct ranks all the same, by reach', () => {
    const figures = smartSetStats([account('a', 100), account('b', 300), account('c', 200)], [post('a', 10), post('b', 10), post('c', 10)]);
    expect([...figures.entries()].map(([key, entry]) => [key, entry.smartMoneyRank])).to.deep.equal([
      ['a', 3],
      ['b', 1],
      ['c', 2],
    ]);
    // Not the retired route's picture: nobody is 100 and rank 1 together with everyone else.
    expect(new Set([...figures.values()].map((entry) => entry.indexScore)).size).to.equal(3);
  });

  it('when the others reply to, quote and mention an account, then its influence lifts it above a bigger, more engaging account', () => {
    const accounts = [account('whale', 1_000_000), account('sharp', 5_000), account('x1', 2_000), account('x2', 3_000)];
    const posts = [
      post('whale', 500),
      post('sharp', 20),
      post('x1', 5, { repliesTo: 'sharp' }),
      post('x2', 5, { quotes: 'sharp' }),
      post('x2', 5, { mentions: ['sharp'] }),
      post('whale', 400, { mentions: ['sharp'] }),
    ];
    const figures = smartSetStats(accounts, posts);
    expect(figures.get('sharp')).to.deep.include({
      influence: Math.round((Math.log2(3) + Math.log2(5) + Math.log2(2)) * 1000) / 1000,
      smartMoneyRank: 1,
    });
    expect(figures.get('whale')?.smartMoneyRank).to.equal(2);
  });

  it('when one account refers to another many times, then breadth counts more: ten referrers once outweigh one referrer ten times', () => {
    const referrers = Array.from({ length: 10 }, (_, at) => `r${at}`);
    const figures = smartSetStats(
      [account('wide', 10), account('deep', 10), ...referrers.map((key) => account(key, 10))],
      [
        ...referrers.map((key) => post(key, 1, { mentions: ['wide'] })),
        ...Array.from({ length: 10 }, () => post('r0', 1, { mentions: ['deep'] })),
      ],
    );
    expect(figures.get('wide')!.influence!).to.be.greaterThan(figures.get('deep')!.influence!);
  });

  it('when an account refers to itself, then it gains nothing', () => {
    const figures = smartSetStats(
      [account('a', 10), account('b', 10)],
      [post('a', 1, { mentions: ['a'], quotes: 'a', repliesTo: 'a' }), post('b', 1)],
    );
    expect(figures.get('a')?.influence).to.equal(0);
  });

  it('when an account posted nothing in the window, read, then 0 posts and 0 engagement are true figures and it is ranked', () => {
    const figures = smartSetStats([account('quiet', 50), account('loud', 50)], [post('loud', 30, { tokens: ['SOL'] })]);
    expect(figures.get('quiet')).to.deep.include({ totalPosts: 0, avgEngagement: 0, smartMoneyRank: 2 });
    expect(figures.get('loud')).to.deep.include({ totalPosts: 1, avgEngagement: 30, smartMoneyRank: 1, topTokens: ['SOL'] });
  });

  it('when an account was never read and nothing else says, then its figures are null (never a zero) and it is not ranked', () => {
    const figures = smartSetStats([account('known', 10), account('suspended', null, false)], [post('known', 5)]);
    expect(figures.get('suspended')).to.deep.include({ totalPosts: null, avgEngagement: null, indexScore: null, smartMoneyRank: null });
    expect(figures.get('known')?.smartMoneyRank).to.equal(1);
  });

  it("when nobody's posts were read, then influence is unknown, not 0, and the score stands on the figures known", () => {
    const figures = smartSetStats(
      [account('a', 10, false, { totalPosts: 3, avgEngagement: 9 }), account('b', null, false, { totalPosts: 1, avgEngagement: 1 })],
      [],
    );
    // Engagement highest (1 × 0.35), reach alone in its figure (0.5 × 0.25), over 0.6 of weights.
    expect(figures.get('a')).to.deep.include({ influence: null, reach: 10, indexScore: 79.2, smartMoneyRank: 1 });
    // Reach unknown for b: engagement alone, where it is the lowest.
    expect(figures.get('b')).to.deep.include({ indexScore: 0, smartMoneyRank: 2 });
  });

  it("when Elfa counted an account's posts we do not hold, then they fill its figures; a count without engagement is not a zero", () => {
    const figures = smartSetStats(
      [account('a', 10, false, { totalPosts: 4, avgEngagement: 23 }), account('b', 10, false, { totalPosts: 2, avgEngagement: null })],
      [],
    );
    expect(figures.get('a')).to.deep.include({ totalPosts: 4, avgEngagement: 23 });
    expect(figures.get('b')).to.deep.include({ totalPosts: 2, avgEngagement: null, smartMoneyRank: null });
  });

  it('for any set, ranks are 1..n over the scored accounts, distinct, in indexScore order, and every score within 0-100', () => {
    const arbitraryAccount = fc.record({ followers: fc.option(fc.nat({ max: 1e7 })), postsRead: fc.boolean() });
    fc.assert(
      fc.property(
        fc.array(arbitraryAccount, { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 1000 }), fc.nat(), fc.constantFrom('mention', 'reply', 'quote', 'none')), {
          maxLength: 40,
        }),
        (specs, raw) => {
          const accounts = specs.map((spec, at) => account(`k${at}`, spec.followers, spec.postsRead));
          const key = (n: number) => `k${n % accounts.length}`;
          const posts = raw.map(([author, engagement, target, kind]) =>
            post(
              key(author),
              engagement,
              kind === 'mention'
                ? { mentions: [key(target)] }
                : kind === 'reply'
                  ? { repliesTo: key(target) }
                  : kind === 'quote'
                    ? { quotes: key(target) }
                    : {},
            ),
          );
          const scored = [...smartSetStats(accounts, posts).values()].filter((entry) => entry.smartMoneyRank !== null);
          expect(scored.map((entry) => entry.smartMoneyRank).sort((a, b) => a! - b!)).to.deep.equal(scored.map((_, at) => at + 1));
          for (const entry of scored) expect(entry.indexScore).to.be.within(0, 100);
          const byRank = [...scored].sort((a, b) => a.smartMoneyRank! - b.smartMoneyRank!);
          for (let at = 1; at < byRank.length; at += 1) expect(byRank[at - 1]!.indexScore!).to.be.at.least(byRank[at]!.indexScore!);
        },
      ),
    );
  });
});

describe('the held posts as the set sees them (references read from the text)', () => {
  const tracked = new Set(['alice', 'bob', 'carol']);
  const keyOf = {
    byId: (id: string) => ({ '7': 'alice' })[id],
    byName: (name: string) => (tracked.has(name.toLowerCase()) ? name.toLowerCase() : undefined),
  };
  const held = (author: string, text: string): NewsItem => ({
    id: '1',
    text,
    author,
    authorFollowers: 1,
    publishedAt: '2026-11-27T00:00:00.000Z',
    tokens: [],
    engagementScore: 7,
  });

  it('when a post starts with handles, then the first is the account replied to and the other tracked handles are mentions', () => {
    expect(setPostsFromHeld([held('Bob', '@Alice @carol @stranger agreed, $SOL')], keyOf)).to.deep.equal([
      { authorKey: 'bob', engagement: 7, tokens: [], mentions: ['carol'], repliesTo: 'alice', quotes: undefined },
    ]);
  });

  it("when a post links another tracked account's post, then it quotes it; handles inside the text are mentions; e-mail addresses are not", () => {
    const [quoting] = setPostsFromHeld(
      [held('carol', 'This, from @bob: https://x.com/Alice/status/1900000000000000105 (mail me: me@alice)')],
      keyOf,
    );
    expect(quoting).to.deep.include({ authorKey: 'carol', mentions: ['bob'], repliesTo: undefined, quotes: 'alice' });
  });

  it("when X said who it replies to, mentions and quotes (the post's fields), then those count, not the text", () => {
    const quoted = { ...held('alice', 'gm'), id: '900', authorId: '7' };
    const replying = { ...held('carol', '@bob hello'), id: '901', inReplyToUserId: '7', mentions: ['bob', 'stranger'], quotes: ['900'] };
    expect(setPostsFromHeld([quoted, replying], keyOf)[1]).to.deep.include({
      authorKey: 'carol',
      repliesTo: 'alice',
      mentions: ['bob'],
      quotes: 'alice',
    });
  });

  it('when the author is not tracked, then the post is left out', () => {
    expect(setPostsFromHeld([held('stranger', '@alice hi')], keyOf)).to.deep.equal([]);
  });
});
