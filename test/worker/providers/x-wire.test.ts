import { expect } from 'chai';
import {
  accountProblem,
  engagementScore,
  pageSchema,
  postsOf,
  problemsOf,
  refusesParameter,
  tokensOf,
  xRefusal,
} from '../../../apps/worker/src/providers/x-wire.js';
import { batchesOf, batchQuery } from '../../../apps/worker/src/providers/x-batches.js';

const page = (body: unknown) => pageSchema.parse(body);

/** A raw page read as the adapter reads it: posts whole with tokens and engagement, the next token, the problems. */
function readPostPage(body: unknown) {
  const parsed = pageSchema.safeParse(body);
  if (!parsed.success) return undefined;
  return {
    posts: postsOf(parsed.data).posts.map((post) => ({
      id: post.id,
      authorId: post.authorId,
      text: post.text,
      createdAt: post.createdAt,
      tokens: tokensOf(post),
      engagementScore: engagementScore(post.metrics),
    })),
    next: parsed.data.meta?.next_token,
    problems: problemsOf(parsed.data.errors),
  };
}

describe('X payloads in both spellings (x-wire)', () => {
  const post = { id: '20', text: 'short…', created_at: '2026-11-01T10:00:00.000Z', author_id: '1' };

  for (const [names, body] of [
    [
      '2.167',
      {
        data: [
          { ...post, note_post: { text: 'the whole $TAIL' }, edit_history_post_ids: ['19', '20'], public_metrics: { repost_count: 3 } },
        ],
        includes: { posts: [{ ...post, id: '5' }] },
      },
    ],
    [
      'docs',
      {
        data: [
          { ...post, note_tweet: { text: 'the whole $TAIL' }, edit_history_tweet_ids: ['19', '20'], public_metrics: { retweet_count: 3 } },
        ],
        includes: { tweets: [{ ...post, id: '5' }] },
      },
    ],
  ] as const) {
    it(`when a page comes in the ${names} names, then the whole text, the reposts, the earlier versions and the included posts are read`, () => {
      const { posts, included } = postsOf(page(body));
      expect(posts[0]).to.deep.include({
        text: 'the whole $TAIL',
        replaces: ['19'],
        metrics: { likes: 0, replies: 0, bookmarks: 0, quotes: 0, reposts: 3 },
      });
      expect(included.map((entry) => entry.id)).to.deep.equal(['5']);
    });
  }

  it('when a raw page is read as the adapter reads it, then posts whole with tokens and engagement, the next token, the problems; a suspended timeline is no post and one problem', () => {
    const read = readPostPage({
      data: [{ ...post, note_post: { text: 'long $TAIL' }, public_metrics: { like_count: 2, repost_count: 1 } }],
      meta: { next_token: 'n1', result_count: 1 },
    });
    expect(read?.posts).to.deep.equal([
      { id: '20', authorId: '1', text: 'long $TAIL', createdAt: '2026-11-01T10:00:00.000Z', tokens: ['TAIL'], engagementScore: 4 },
    ]);
    expect(read?.next).to.equal('n1');
    const suspended = readPostPage({
      errors: [
        {
          detail: 'User has been suspended: [2881117795].',
          title: 'Forbidden',
          type: 'https://api.twitter.com/2/problems/resource-not-found',
        },
      ],
    });
    expect(suspended?.posts).to.deep.equal([]);
    expect(suspended?.problems.map(accountProblem)).to.deep.equal(['suspended']);
    expect(readPostPage('not json')).to.equal(undefined);
  });

  it('when a 400 names the fields parameter (in parameters or in the message), then it refuses that parameter, not another', () => {
    const byKey = {
      errors: [
        { parameters: { 'tweet.fields': ['created_at'] }, message: 'The query parameter [tweet.fields] is not one of [query,post.fields]' },
      ],
    };
    expect(refusesParameter(byKey, 'tweet.fields')).to.equal(true);
    expect(refusesParameter(byKey, 'post.fields')).to.equal(false);
    expect(refusesParameter({ errors: [{ message: 'The query parameter [post.fields] is not one of [query]' }] }, 'post.fields')).to.equal(
      true,
    );
    expect(refusesParameter({ title: 'Invalid Request' }, 'post.fields')).to.equal(false);
  });

  it('when a lookup reports problems, then a suspension ("Forbidden", type resource-not-found) is told from an unknown name', () => {
    const suspended = {
      detail: 'User has been suspended: [2881117795].',
      title: 'Forbidden',
      type: 'https://api.twitter.com/2/problems/resource-not-found',
      resource_id: '2881117795',
    };
    expect(accountProblem(suspended)).to.equal('suspended');
    expect(
      accountProblem({
        detail: 'Could not find user with usernames: [xn47mzh437].',
        title: 'Not Found Error',
        type: 'https://api.twitter.com/2/problems/resource-not-found',
      }),
    ).to.equal('not_found');
  });

  it('when X answers 403 client-forbidden, then it is a missing enrolment, and a plain 403 is not', () => {
    expect(xRefusal(403, { reason: 'client-not-enrolled', type: 'https://api.twitter.com/2/problems/client-forbidden' })).to.match(
      /^client-not-enrolled/,
    );
    expect(xRefusal(403, { title: 'Forbidden', type: 'about:blank' })).to.equal(undefined);
    expect(xRefusal(401, { reason: 'client-not-enrolled' })).to.equal(undefined);
  });

  it('when accounts are packed into queries, then each query fits the limit, with the parentheses that keep -is:retweet on every clause', () => {
    const accounts = Array.from({ length: 100 }, (_, i) => ({ id: String(1000 + i), username: `user_${'n'.repeat(i % 10)}${i}` }));
    const batches = batchesOf(accounts, 512);
    expect(batches.flat()).to.have.length(100);
    for (const batch of batches) expect(batchQuery(batch.map((member) => member.username)).length).to.be.at.most(512);
    expect(batchQuery(['a', 'b'])).to.equal('(from:a OR from:b) -is:retweet');
  });
});
