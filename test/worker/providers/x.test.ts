import { expect } from 'chai';
import { providerKeys } from '../../../shared/provider-keys.js';
import { LONG_POST_TEXT, X_TOKEN } from '../../../dev/provider-fixtures/x.js';
import { rejection, startHarness, type Harness } from './helpers.js';

const WINDOW_MS = 72 * 3_600_000;
const since = () => new Date(Date.now() - WINDOW_MS);

describe('X adapter against the shapes X answers today', () => {
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  describe('in OpenAPI 2.167 names (tweet.fields refused)', () => {
    beforeEach(async () => {
      h = await startHarness();
    });

    it('when the news is read, then one search for the tracked accounts with post.fields, the long post whole with the cashtags of its whole text, reposts counted', async () => {
      const { result: posts, spend } = await h.spend(() => h.provider.posts(since(), 10_000));
      expect(posts.map((post) => post.id)).to.deep.equal([
        '1900000000000000105',
        '1900000000000000102',
        '1900000000000000104',
        '1900000000000000103',
        '1900000000000000101',
      ]);
      const long = posts.find((post) => post.id === '1900000000000000104')!;
      expect(long.text).to.equal(LONG_POST_TEXT);
      expect(long.text).to.have.length(349);
      expect(long.tokens).to.deep.equal(['PEPE', 'SOL', 'TAIL']);
      // repost_count (2.167) counts as retweet_count did: 40 + 2 + 1 + 2 × (4 + 0).
      expect(long.engagementScore).to.equal(51);
      expect(posts[0]).to.deep.include({
        author: 'CryptoAlice',
        authorFollowers: 52000,
        tokens: ['SOL'],
        engagementScore: 100 + 5 + 3 + 2 * (10 + 2),
      });

      const searches = h.fixtures.x.requestsTo('/2/tweets/search/recent');
      expect(searches).to.have.length(1);
      expect(searches[0]!.query.query).to.equal('(from:CryptoAlice OR from:bob_trades) -is:retweet');
      expect(searches[0]!.query['post.fields']).to.include('note_post');
      expect(searches[0]!.query).to.not.have.any.keys('tweet.fields', 'expansions', 'user.fields');
      expect(h.fixtures.x.requests.every((request) => request.headers.authorization === `Bearer ${X_TOKEN}`)).to.equal(true);
      // Users are read by the lookup (4 names, 2 found), posts by the search.
      expect(spend.x).to.deep.equal({ calls: 2, credits: 0, posts: 5, users: 2 });
    });

    it('when an account is added to TRACKED_ACCOUNTS, then its window is read apart: the others are not read (and paid for) again', async () => {
      await h.provider.posts(since(), 10_000);
      h.fixtures.x.addPost({
        id: '1900000000000000108',
        author_id: '1004',
        created_at: new Date(Date.now() - 5 * 3_600_000).toISOString(),
        text: 'whale alert $BTC',
        cashtags: ['BTC'],
      });
      h.fixtures.reset();
      const billed = h.fixtures.x.billed.posts;
      const posts = await h
        .restart({ TRACKED_ACCOUNTS: 'cryptoalice,Bob_Trades,ghost_acct,rugpull_dev,whale_watch' })
        .posts(since(), 10_000);
      expect(posts.map((post) => post.id)).to.include('1900000000000000108');
      const searches = h.fixtures.x.requestsTo('/2/tweets/search/recent').map((request) => request.query);
      expect(searches).to.have.length(2);
      expect(searches.find((query) => query.query === '(from:whale_watch) -is:retweet')).to.have.property('start_time');
      expect(searches.find((query) => query.query === '(from:CryptoAlice OR from:bob_trades) -is:retweet')).to.include({
        since_id: '1900000000000000105',
      });
      expect(h.fixtures.x.billed.posts - billed).to.equal(1);
    });

    it('when read again, then only what is new (since_id), and the tracked accounts are not looked up again the same day', async () => {
      await h.provider.posts(since(), 10_000);
      h.fixtures.reset();
      h.fixtures.x.addPost({
        id: '1900000000000000106',
        author_id: '1002',
        created_at: new Date().toISOString(),
        text: 'New: $AXL',
        cashtags: ['AXL'],
      });
      const { result: posts, spend } = await h.spend(() => h.provider.posts(since(), 10_000));
      expect(h.fixtures.x.requestsTo('/2/users')).to.have.length(0);
      expect(h.fixtures.x.requestsTo('/2/tweets/search/recent')[0]!.query).to.include({ since_id: '1900000000000000105' });
      expect(posts[0]).to.deep.include({ id: '1900000000000000106', tokens: ['AXL'], engagementScore: 0, authorFollowers: 8000 });
      expect(posts).to.have.length(6);
      expect(spend.x).to.deep.equal({ calls: 1, credits: 0, posts: 1 });

      h.clock.now = new Date(h.clock.now.getTime() + 86_400_000 + 1);
      h.fixtures.reset();
      await h.provider.posts(since(), 10_000);
      // A day later: the known ids by id, the names never found by name.
      expect(
        h.fixtures.x.requestsTo('/2/users').map((request) => request.path + ' ' + (request.query.ids ?? request.query.usernames)),
      ).to.deep.equal(['/2/users 1001,1002', '/2/users/by ghost_acct,rugpull_dev']);
    });
  });

  describe('a store that fails after the posts were read (issue 38 item 8)', () => {
    beforeEach(async () => {
      h = await startHarness();
    });

    it('when storing the posts read fails in Redis, then the read position stays: the next refresh reads those paid posts again and holds them', async () => {
      // The held-posts key is made the wrong type, so Redis refuses the store (WRONGTYPE) after X has answered.
      await h.redis.set(providerKeys.xPosts(), 'not a hash');
      await rejection(h.provider.posts(since(), 10_000));
      expect(h.fixtures.x.requestsTo('/2/tweets/search/recent')).to.have.length(1);
      expect(await h.redis.hlen(providerKeys.xReads())).to.equal(0);

      await h.redis.del(providerKeys.xPosts());
      h.fixtures.reset();
      const posts = await h.provider.posts(since(), 10_000);
      expect(posts.map((post) => post.id)).to.have.members([
        '1900000000000000101',
        '1900000000000000102',
        '1900000000000000103',
        '1900000000000000104',
        '1900000000000000105',
      ]);
      const search = h.fixtures.x.requestsTo('/2/tweets/search/recent');
      expect(search).to.have.length(1);
      expect(search[0]!.query).to.not.have.property('since_id');
      expect(await h.redis.hlen(providerKeys.xReads())).to.equal(2);
    });
  });

  describe('edits', () => {
    beforeEach(async () => {
      h = await startHarness();
    });

    it('when a held post is edited, then its new version replaces it (edit_history_post_ids), not beside it', async () => {
      await h.provider.posts(since(), 10_000);
      h.fixtures.x.addPost({
        id: '1900000000000000107',
        author_id: '1002',
        created_at: new Date().toISOString(),
        text: 'Bought more $SOL (edited)',
        cashtags: ['SOL'],
        edits: ['1900000000000000102'],
      });
      const ids = (await h.provider.posts(since(), 10_000)).map((post) => post.id);
      expect(ids).to.include('1900000000000000107');
      expect(ids).to.not.include('1900000000000000102');
    });
  });

  describe("in the docs pages' names (post.fields refused)", () => {
    beforeEach(async () => {
      h = await startHarness({}, { x: { dialect: 'docs' } });
    });

    it('when post.fields is refused with a 400 naming it, then tweet.fields once, remembered (Redis) for the next reads, and the old names read', async () => {
      const posts = await h.provider.posts(since(), 10_000);
      const long = posts.find((post) => post.id === '1900000000000000104')!;
      expect(long.text).to.equal(LONG_POST_TEXT);
      expect(long.engagementScore).to.equal(51);
      const asked = h.fixtures.x
        .requestsTo('/2/tweets/search/recent')
        .map((request) => Object.keys(request.query).find((key) => key.endsWith('.fields')));
      expect(asked).to.deep.equal(['post.fields', 'tweet.fields']);
      expect(await h.redis.get(providerKeys.xFieldsDialect())).to.equal('tweet.fields');
      expect(h.logs.some((line) => line.level === 40 && /post\.fields was refused .* X accepts tweet\.fields/.test(line.msg))).to.equal(
        true,
      );

      h.fixtures.reset();
      await h.restart().posts(since(), 10_000);
      expect(
        h.fixtures.x
          .requestsTo('/2/tweets/search/recent')
          .map((request) => Object.keys(request.query).find((key) => key.endsWith('.fields'))),
      ).to.deep.equal(['tweet.fields']);
    });

    it('when a 400 is about something else, then it fails as a 400, without a second try', async () => {
      h.fixtures.x.script('/2/tweets/search/recent', {
        status: 400,
        body: {
          errors: [{ parameters: { query: ['x'] }, message: 'bad query' }],
          title: 'Invalid Request',
          type: 'https://api.twitter.com/2/problems/invalid-request',
        },
      });
      const error = await rejection(h.provider.posts(since(), 10_000));
      expect(error.message).to.match(/HTTP 400 \(bad query\)/);
      expect(error.retryable).to.equal(false);
      expect(h.fixtures.x.requestsTo('/2/tweets/search/recent')).to.have.length(1);
    });
  });

  describe('accounts that change', () => {
    beforeEach(async () => {
      h = await startHarness({ TRACKED_ACCOUNTS: 'cryptoalice,bob_trades,ghost_acct,rugpull_dev,whale_watch' });
    });

    const warnings = () => h.logs.filter((line) => line.level === 40 && typeof line.account === 'string').map((line) => line.msg);
    const states = async () =>
      Object.fromEntries(Object.entries(await h.redis.hgetall(providerKeys.xAccountStates())).filter(([, count]) => count !== '0'));

    it('when a tracked account is suspended or unknown, then one warn line names each, once, and the states are counted for /metrics', async () => {
      await h.provider.posts(since(), 10_000);
      expect(warnings()).to.deep.equal([
        'x: tracked account @ghost_acct was not found on X; its posts are not read',
        'x: tracked account @rugpull_dev is suspended; its posts are not read',
      ]);
      expect(await states()).to.deep.equal({ active: '3', not_found: '1', suspended: '1' });
      // The suspended account's post is never read: it is not in the search.
      expect(h.fixtures.x.requestsTo('/2/tweets/search/recent')[0]!.query.query).to.not.include('rugpull_dev');

      h.clock.now = new Date(h.clock.now.getTime() + 86_400_000 + 1);
      await h.provider.posts(since(), 10_000);
      expect(warnings()).to.have.length(2);

      h.fixtures.x.setState('1002', 'suspended');
      h.clock.now = new Date(h.clock.now.getTime() + 86_400_000 + 1);
      await h.provider.posts(since(), 10_000);
      expect(warnings().at(-1)).to.equal('x: tracked account @bob_trades is suspended; its posts are not read');
      expect(await states()).to.deep.equal({ active: '2', not_found: '1', suspended: '2' });

      h.fixtures.x.setState('1004', 'protected');
      h.fixtures.x.setState('1002', 'active');
      h.clock.now = new Date(h.clock.now.getTime() + 86_400_000 + 1);
      await h.provider.posts(since(), 10_000);
      expect(warnings().at(-1)).to.equal(
        'x: tracked account @whale_watch is protected (visible to its followers only); its posts are not read',
      );
      expect(h.logs.some((line) => line.msg === 'x: tracked account @bob_trades is active again')).to.equal(true);
      expect(await states()).to.deep.equal({ active: '2', not_found: '1', suspended: '1', protected: '1' });
    });

    it('when the known users are asked, then the tracked ones X can read, keyed as configured; a suspended or untracked name is absent', async () => {
      const users = await h.adapters.x.users(['CRYPTOALICE', 'rugpull_dev', 'someone_else']);
      expect(Object.fromEntries(users)).to.deep.equal({ cryptoalice: { id: '1001', username: 'CryptoAlice' } });
      expect(h.fixtures.x.requestsTo('/2/users/by').map((request) => request.query.usernames)).to.deep.equal(['cryptoalice,rugpull_dev']);
    });

    it('when a tracked account is renamed, then it is found again by its id the next day, its posts (also those of the day between) still count, under its new name', async () => {
      await h.provider.posts(since(), 10_000);
      h.fixtures.x.rename('1004', 'WhaleWatcher2');
      h.fixtures.x.addPost({
        id: '1900000000000000110',
        author_id: '1004',
        created_at: new Date(Date.now() - 3_600_000).toISOString(),
        text: 'Renamed, still long $SOL',
        cashtags: ['SOL'],
      });
      h.clock.now = new Date(h.clock.now.getTime() + 30 * 60_000);
      expect((await h.provider.posts(since(), 10_000)).map((post) => post.id)).to.not.include('1900000000000000110');

      h.clock.now = new Date(h.clock.now.getTime() + 86_400_000);
      const posts = await h.provider.posts(since(), 10_000);
      expect(posts.find((post) => post.id === '1900000000000000110')).to.deep.include({ author: 'WhaleWatcher2', authorFollowers: 30000 });
      expect(warnings()).to.include(
        'x: tracked account @whale_watch is now @WhaleWatcher2 on X (same id 1004); its posts still count; update TRACKED_ACCOUNTS',
      );
      expect(await states()).to.include({ renamed: '1' });

      for (const name of ['whale_watch', 'WHALEWATCHER2']) {
        expect(await h.provider.account(name), name).to.deep.include({ username: 'WhaleWatcher2', totalPosts: 1, topTokens: ['SOL'] });
      }
      // Its posts are in the smart-money counts (trending: SOL 3 tracked posts in 24 h, now 4).
      h.clock.now = new Date();
      const sol = (await h.provider.trendingTokens()).find((token) => token.token === 'SOL');
      expect(sol?.smartMoneyMentions).to.equal(4);
    });
  });

  describe('1,000 tracked accounts', () => {
    const names = Array.from({ length: 1000 }, (_, i) => `acct_${String(i).padStart(4, '0')}_${'x'.repeat(i % 6)}`);
    const users = names.map((username, i) => ({ id: String(5_000_000 + i), name: username, username, followers: i }));
    const posts = users.flatMap((user, i) =>
      i % 3 === 0
        ? [
            {
              id: String(1_950_000_000_000_000_000n + BigInt(i)),
              author_id: user.id,
              created_at: new Date(Date.now() - 3_600_000).toISOString(),
              text: `gm from ${user.username} $SOL`,
              cashtags: ['SOL'],
            },
          ]
        : [],
    );

    beforeEach(async () => {
      h = await startHarness({ TRACKED_ACCOUNTS: names.join(',') }, { x: { users, posts } });
    });

    it('when the news is read, then at most 50 X requests a refresh, lookups included, every query within 512 characters, every post read once', async () => {
      const first = await h.spend(() => h.provider.posts(since(), 10_000));
      expect(first.spend.x!.calls).to.be.at.most(50);
      expect(h.fixtures.x.requestsTo('/2/users/by')).to.have.length(10);
      expect(first.spend.x!.users).to.equal(1000);
      // What the first refresh's budget left (the lookups took 10) is read by the next one, least recently read batches first.
      const second = await h.spend(() => h.provider.posts(since(), 10_000));
      expect(second.spend.x!.calls).to.be.at.most(50);
      const searches = h.fixtures.x.requestsTo('/2/tweets/search/recent');
      for (const search of searches) expect(search.query.query!.length).to.be.at.most(512);
      expect(second.result.map((post) => post.id).sort()).to.deep.equal(posts.map((post) => post.id).sort());
      expect(h.fixtures.x.billed.posts).to.equal(posts.length);
      const batches = new Set(searches.map((search) => search.query.query)).size;
      expect(batches).to.be.within(35, 50);

      const third = await h.spend(() => h.provider.posts(since(), 10_000));
      expect(third.spend.x).to.deep.equal({ calls: batches, credits: 0, posts: 0 });
    });

    it('when the name remembered is tweet.fields, which 2.167 refuses, then the refused request and its post.fields retry are in the 50 too', async () => {
      await h.redis.set(providerKeys.xFieldsDialect(), 'tweet.fields');
      await h.provider.posts(since(), 10_000);
      const searches = h.fixtures.x.requestsTo('/2/tweets/search/recent');
      expect(searches.filter((search) => search.query['tweet.fields'] !== undefined)).to.have.length(1);
      expect(h.fixtures.x.requests).to.have.length(50);
      expect(await h.redis.get(providerKeys.xFieldsDialect())).to.equal('post.fields');
    });
  });

  describe('posts past the request budget', () => {
    const author = { id: '7001', name: 'Busy', username: 'busy_bee', followers: 10 };
    const post = (n: number, hoursAgo: number) => ({
      id: String(1_960_000_000_000_000_000n + BigInt(n)),
      author_id: author.id,
      created_at: new Date(Date.now() - hoursAgo * 3_600_000).toISOString(),
      text: `post ${n}`,
    });

    beforeEach(async () => {
      const backlog = Array.from({ length: 45 }, (_, n) => post(n, 10 - n / 10));
      h = await startHarness(
        { TRACKED_ACCOUNTS: 'busy_bee', X_REQUESTS_PER_REFRESH: '3' },
        { x: { users: [author], posts: backlog, pageSize: 10 } },
      );
    });

    it('when a refresh runs out of requests mid-search, then the next reads the new posts first and then the rest: none skipped, none read twice', async () => {
      const first = await h.spend(() => h.provider.posts(since(), 10_000));
      // 1 lookup + 2 pages of 10.
      expect(first.result).to.have.length(20);
      h.fixtures.x.addPost(post(100, 0.1));
      const second = await h.spend(() => h.provider.posts(since(), 10_000));
      const searches = h.fixtures.x.requestsTo('/2/tweets/search/recent').slice(2);
      expect(searches[0]!.query).to.include({ since_id: post(44, 0).id });
      expect(searches[1]!.query).to.include({ until_id: post(25, 0).id });
      expect(second.result).to.have.length(41);
      const third = await h.spend(() => h.provider.posts(since(), 10_000));
      expect(third.result.map((item) => item.id).sort()).to.deep.equal(
        [...Array.from({ length: 45 }, (_, n) => post(n, 0).id), post(100, 0).id].sort(),
      );
      expect(h.fixtures.x.billed.posts).to.equal(46);
    });
  });

  describe("the post fields name refused on the budget's last request", () => {
    const author = { id: '7001', name: 'Busy', username: 'busy_bee', followers: 10 };
    const posts = Array.from({ length: 15 }, (_, n) => ({
      id: String(1_960_000_000_000_000_000n + BigInt(n)),
      author_id: author.id,
      created_at: new Date(Date.now() - (10 - n / 10) * 3_600_000).toISOString(),
      text: `post ${n}`,
    }));

    beforeEach(async () => {
      h = await startHarness({ TRACKED_ACCOUNTS: 'busy_bee', X_REQUESTS_PER_REFRESH: '2' }, { x: { users: [author], posts } });
      await h.redis.set(providerKeys.xFieldsDialect(), 'tweet.fields');
    });

    it('when tweet.fields is refused with no request left, then no retry that refresh, and the next asks with post.fields first', async () => {
      const first = await h.provider.posts(since(), 10_000);
      // The lookup and the refused search: the budget of 2.
      expect(h.fixtures.x.requests.map((request) => request.path)).to.deep.equal(['/2/users/by', '/2/tweets/search/recent']);
      expect(first).to.have.length(0);

      h.fixtures.reset();
      const second = await h.provider.posts(since(), 10_000);
      expect(h.fixtures.x.requests.map((request) => Object.keys(request.query).find((key) => key.endsWith('.fields')))).to.deep.equal([
        'post.fields',
      ]);
      expect(second.map((post) => post.id).sort()).to.deep.equal(posts.map((post) => post.id).sort());
    });
  });

  describe('a 429 within the request budget', () => {
    const author = { id: '7001', name: 'Busy', username: 'busy_bee', followers: 10 };
    const posts = Array.from({ length: 5 }, (_, n) => ({
      id: String(1_960_000_000_000_000_000n + BigInt(n)),
      author_id: author.id,
      created_at: new Date(Date.now() - (10 - n) * 3_600_000).toISOString(),
      text: `post ${n}`,
    }));
    const rateLimited = () => ({
      status: 429,
      headers: { 'x-rate-limit-reset': String(Math.ceil(Date.now() / 1000)) },
      body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
    });

    it('when the search is rate limited with a request left, then the retry after the reset is that request', async () => {
      h = await startHarness({ TRACKED_ACCOUNTS: 'busy_bee', X_REQUESTS_PER_REFRESH: '3' }, { x: { users: [author], posts } });
      h.fixtures.x.script('/2/tweets/search/recent', rateLimited());
      const read = await h.provider.posts(since(), 10_000);
      expect(read.map((post) => post.id).sort()).to.deep.equal(posts.map((post) => post.id).sort());
      expect(h.fixtures.x.requests.map((request) => request.path)).to.deep.equal([
        '/2/users/by',
        '/2/tweets/search/recent',
        '/2/tweets/search/recent',
      ]);
    });

    it("when the search is rate limited on the budget's last request, then it is not retried: X sees no more requests than X_REQUESTS_PER_REFRESH", async () => {
      h = await startHarness({ TRACKED_ACCOUNTS: 'busy_bee', X_REQUESTS_PER_REFRESH: '2' }, { x: { users: [author], posts } });
      h.fixtures.x.script('/2/tweets/search/recent', rateLimited());
      expect((await rejection(h.provider.posts(since(), 10_000))).message).to.include('no request left');
      expect(h.fixtures.x.requests.map((request) => request.path)).to.deep.equal(['/2/users/by', '/2/tweets/search/recent']);
    });
  });

  describe('errors', () => {
    beforeEach(async () => {
      h = await startHarness();
    });

    it('when rate limited (429 with x-rate-limit-reset), then one wait and one more call', async () => {
      h.fixtures.x.script('/2/users/by', {
        status: 429,
        headers: { 'x-rate-limit-reset': String(Math.ceil(Date.now() / 1000) + 1) },
        body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
      });
      const account = await h.adapters.x.account('CryptoAlice');
      expect(account).to.deep.include({ id: '1001', username: 'CryptoAlice', state: 'active' });
      expect(h.fixtures.x.requestsTo('/2/users/by')).to.have.length(2);
    });

    it('when the monthly usage cap is hit (429 usage-capped), then X is blocked until the next month, not retried', async () => {
      h.fixtures.x.script('/2/users/by', {
        status: 429,
        headers: { 'x-rate-limit-reset': String(Math.ceil(Date.now() / 1000)) },
        body: {
          title: 'UsageCapExceeded',
          detail: 'Usage cap exceeded: Monthly product cap',
          type: 'https://api.twitter.com/2/problems/usage-capped',
          period: 'Monthly',
          scope: 'Product',
        },
      });
      const error = await rejection(h.provider.posts(since(), 10_000));
      expect(error.retryable).to.equal(false);
      await rejection(h.provider.posts(since(), 10_000));
      expect(h.fixtures.x.requests).to.have.length(1);
      expect(JSON.parse((await h.redis.hget(providerKeys.blocked(), 'x'))!)).to.include({ reason: 'usage cap reached', status: 429 });
    });

    it('when X has no credits (402 CreditsDepleted), then X is blocked for an hour', async () => {
      h.fixtures.x.script('/2/users/by', {
        status: 402,
        body: {
          account_id: 1,
          title: 'CreditsDepleted',
          detail: 'Your enrolled account [1] does not have any credits to fulfill this request.',
          type: 'https://api.twitter.com/2/problems/credits',
        },
      });
      await rejection(h.provider.posts(since(), 10_000));
      const block = JSON.parse((await h.redis.hget(providerKeys.blocked(), 'x'))!) as { until: string };
      expect(Date.parse(block.until) - h.clock.now.getTime()).to.equal(3_600_000);
    });

    it('when the bearer token is refused (401), then the error names X_BEARER_TOKEN and not the token', async () => {
      h.fixtures.x.script('/2/users/by', {
        status: 401,
        body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' },
      });
      const error = await rejection(h.provider.posts(since(), 10_000));
      expect(error.message).to.match(/X_BEARER_TOKEN/);
      expect(error.message + JSON.stringify(h.logs)).to.not.include(X_TOKEN);
    });

    it('when the app is not enrolled (403 client-not-enrolled), then the log says so, not that the token was refused', async () => {
      await h.provider.posts(since(), 10_000);
      h.fixtures.x.script('/2/tweets/search/recent', {
        status: 403,
        body: {
          client_id: '1',
          detail:
            'When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.',
          title: 'Client Forbidden',
          required_enrollment: 'Appropriate Level of API Access',
          reason: 'client-not-enrolled',
          type: 'https://api.twitter.com/2/problems/client-forbidden',
        },
      });
      const error = await rejection(h.provider.posts(since(), 10_000));
      expect(error.retryable).to.equal(false);
      const line = h.logs.find((entry) => entry.level === 50 && entry.provider === 'x');
      expect(line?.msg).to.match(/HTTP 403 client-not-enrolled: the X app is not attached to a Project/);
      expect(line?.msg).to.not.match(/was refused/);
    });
  });
});
