/**
 * INDEX_PROVIDER=composite end to end: the Procfile's `worker` and `web` processes, built as the
 * platform builds them, configured by the environment only, against the three providers'
 * fixture servers; every market route read through the API.
 */
import { expect } from 'chai';
import { startCompositeProcfile, type CompositeProcfile } from '../../support/composite-procfile.js';
import { http } from '../../support/http.js';
import type { ProviderFixtures } from '../../../dev/provider-fixtures/index.js';
import type { RecordedRequest } from '../../../dev/provider-fixtures/fixture-server.js';
import { SseClient } from '../../support/sse.js';
import { FIXTURE_CRYPTOALICE_STATS, FIXTURE_TRENDING } from './composite-expected.js';

const KEY_HEADERS = ['x-elfa-api-key', 'x-cg-demo-api-key', 'x-cg-pro-api-key', 'authorization'];

/** One line per request: the path, its query and which key header came (its value masked). */
function describeRequest(request: RecordedRequest): string {
  const query = new URLSearchParams(request.query).toString();
  const sent = KEY_HEADERS.filter((name) => request.headers[name] !== undefined).map((name) => `${name}: ***`);
  return `GET ${request.path}${query ? `?${query}` : ''}  [${sent.join(', ')}]`;
}

describe("composite mode through the Procfile processes, against the providers' fixture servers", function () {
  this.timeout(180_000);
  let stack: CompositeProcfile;
  let fixtures: ProviderFixtures;
  let apiUrl: string;

  before(async () => {
    // Each refresh's spend is in its "job completed" line, logged at debug.
    stack = await startCompositeProcfile({ env: { LOG_LEVEL: 'debug' } });
    ({ fixtures, apiUrl } = stack);
  });

  after(() => stack?.close());

  it('then every market route answers 200 with the fields filled by the providers, and each provider was asked with its key header', async () => {
    const trending = await http(`${apiUrl}/api/market/trending`);
    expect(trending.status).to.equal(200);
    const tokens = (trending.json as { data: { token: string }[] }).data;
    expect(tokens.slice(0, 3)).to.deep.equal(FIXTURE_TRENDING.slice(0, 3));

    const cas = await http(`${apiUrl}/api/market/trending-cas`);
    expect(cas.status).to.equal(200);
    expect((cas.json as { data: { mentions: number }[] }).data.map((ca) => ca.mentions)).to.deep.equal([30, 15, 0]);

    const news = await http(`${apiUrl}/api/market/news?limit=2&page=1`);
    expect(news.status).to.equal(200);
    const page = news.json as { data: { author: string; tokens: string[] }[]; pagination: { total: number } };
    expect(page.pagination.total).to.equal(5);
    expect(page.data[0]).to.deep.include({ author: 'CryptoAlice', tokens: ['SOL'] });

    const stats = await http(`${apiUrl}/api/market/stats/CRYPTOALICE`);
    expect(stats.status).to.equal(200);
    expect(stats.json).to.deep.include(FIXTURE_CRYPTOALICE_STATS);
    expect((await http(`${apiUrl}/api/market/stats/bob_trades`)).json).to.deep.include({ smartMoneyRank: 2 });
    // Retired on 28 October 2026: stats are ours, from what X and Elfa still serve.
    expect(fixtures.elfa.requestsTo('/v2/account/smart-stats')).to.have.length(0);

    const elfaCallsBefore = fixtures.elfa.requests.length;
    const unknown = await http(`${apiUrl}/api/market/stats/someone_else`);
    expect(unknown.status).to.equal(404);
    expect(unknown.json).to.deep.equal({ error: 'Username not found in index' });
    expect(fixtures.elfa.requests.length).to.equal(elfaCallsBefore);

    for (const path of [
      '/api/market/sentiment/SOL',
      '/sentiment/SOL',
      '/api/market/sentiment/SOL/history?interval=30m',
      '/api/market/tokens/SOL/history?interval=1h',
    ]) {
      const answer = await http(`${apiUrl}${path}`);
      expect(answer.status, path).to.equal(200);
    }
    const sentiment = (await http(`${apiUrl}/api/market/sentiment/SOL`)).json as { mentions: number; sample: unknown; confidence: number };
    expect(sentiment.mentions).to.equal(3);
    // Two of the three posts are CryptoAlice's: two voices, so the record cannot be sure (at most 2 / 12).
    expect(sentiment.sample).to.deep.equal({ posts: 3, authors: 2 });
    expect(sentiment.confidence).to.be.within(0, 0.17);

    const stream = await SseClient.connect(`${apiUrl}/api/market/stream?topics=trending,news`);
    expect(stream.status).to.equal(200);
    stream.close();

    const asked = [...fixtures.elfa.requests, ...fixtures.coingecko.requests, ...fixtures.x.requests];
    process.stdout.write(
      `      what the providers were asked:\n${asked.map((request) => `        ${describeRequest(request)}`).join('\n')}\n`,
    );
    for (const request of fixtures.elfa.requests)
      expect(request.headers['x-elfa-api-key'], request.path).to.equal(fixtures.env.ELFA_API_KEY);
    for (const request of fixtures.coingecko.requests)
      expect(request.headers['x-cg-demo-api-key'], request.path).to.equal(fixtures.env.COINGECKO_API_KEY);
    for (const request of fixtures.x.requests)
      expect(request.headers.authorization, request.path).to.equal(`Bearer ${fixtures.env.X_BEARER_TOKEN}`);
    expect(fixtures.elfa.requestsTo('/v2/key-status')).to.have.length(1);
    // A refresh that failed on a busy machine (a Redis timeout) is retried by its job, so these are "at least".
    expect(fixtures.coingecko.requestsTo('/coins/markets')).to.have.length.at.least(1);
    expect(fixtures.x.requestsTo('/2/users/by')).to.have.length.at.least(1);
  });

  it("then the worker said at start which Elfa interval the credits allow, logged each refresh's spend, and /metrics counts it; no key anywhere", async () => {
    const log = stack.worker.log();
    expect(log).to.match(
      /elfa: 1000 credits a month \(the key status \(\/v2\/key-status\)\): trending and trending-cas refresh every 149 min, 29 credits a day/,
    );
    const completed = log
      .split('\n')
      .filter((line) => line.includes('"job completed"'))
      .map(
        (line) =>
          JSON.parse(line) as { job: string; result: { spend?: Record<string, { calls: number; credits: number; posts: number }> } },
      );
    const spendOf = (job: string) => completed.find((line) => line.job === job)?.result.spend;
    expect(spendOf('refresh-trending')).to.deep.include({
      elfa: { calls: 1, credits: 1, posts: 0 },
      coingecko: { calls: 1, credits: 1, posts: 0 },
    });
    expect(spendOf('refresh-trending-cas')).to.deep.include({ elfa: { calls: 2, credits: 2, posts: 0 } });

    // On a first start a trending refresh may read X before the news refresh does, and a read in
    // progress is shared: the X spend lands on whichever refresh started it. /metrics has it all.
    const metrics = await (await fetch(`${apiUrl}/metrics`)).text();
    const counted = (series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    expect(counted('market_provider_calls_total{provider="elfa",status="200"}')).to.be.at.least(4);
    // One lookup of the tracked accounts, one search for all their posts.
    expect(counted('market_provider_calls_total{provider="x",status="200"}')).to.be.at.least(2);
    expect(counted('market_provider_spend_total{provider="x",unit="posts"}')).to.be.at.least(5);
    expect(counted('market_provider_spend_total{provider="elfa",unit="credits"}')).to.be.at.least(3);
    for (const secret of [fixtures.env.ELFA_API_KEY!, fixtures.env.X_BEARER_TOKEN!, fixtures.env.COINGECKO_API_KEY!]) {
      expect(log + stack.web.log() + metrics).to.not.include(secret);
    }
  });
});
