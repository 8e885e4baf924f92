/**
 * Issue 27 end to end: the Procfile's `worker` and `web` as real children in composite mode,
 * against fixture servers that answer as the providers do today: X in OpenAPI 2.167's names
 * (`tweet.fields` refused with a 400), a 349-character post whose `$TAIL` comes after character
 * 280, a suspended tracked account; Elfa with smart-stats retired (404) and a prepaid key (a key
 * status without limits).
 */
import { expect } from 'chai';
import { startCompositeProcfile, type CompositeProcfile } from '../../support/composite-procfile.js';
import { http } from '../../support/http.js';
import type { ProviderFixtures } from '../../../dev/provider-fixtures/index.js';
import { LONG_POST_TEXT } from '../../../dev/provider-fixtures/x.js';

describe('composite mode through the Procfile processes, against the providers as they answer today', function () {
  this.timeout(180_000);
  let stack: CompositeProcfile;
  let fixtures: ProviderFixtures;
  let apiUrl: string;

  before(async () => {
    stack = await startCompositeProcfile({
      x: { dialect: '2.167' },
      arrange: (arranged) => (arranged.elfa.mode.keyStatus = 'prepaid'),
    });
    ({ fixtures, apiUrl } = stack);
  });

  after(() => stack?.close());

  it('then every market route answers 200', async () => {
    for (const path of [
      '/api/market/trending',
      '/api/market/trending-cas',
      '/api/market/news',
      '/api/market/news?limit=2&page=2',
      '/api/market/stats/CryptoAlice',
      '/api/market/stats/bob_trades',
      '/api/market/sentiment/SOL',
      '/sentiment/SOL',
      '/api/market/sentiment/SOL/history?interval=30m',
      '/api/market/tokens/SOL/history?interval=1h',
    ]) {
      expect((await http(`${apiUrl}${path}`)).status, path).to.equal(200);
    }
  });

  it('then the long post is in the news whole, with the cashtag after its 280th character, read with post.fields and no 400', async () => {
    const news = (await http(`${apiUrl}/api/market/news?limit=50`)).json as { data: { id: string; text: string; tokens: string[] }[] };
    const long = news.data.find((post) => post.text.startsWith('A long thread on $PEPE'));
    expect(long?.text).to.equal(LONG_POST_TEXT);
    expect(long?.tokens).to.include('TAIL');
    const searches = fixtures.x.requestsTo('/2/tweets/search/recent');
    expect(searches.length).to.be.at.least(1);
    for (const search of searches)
      expect(search.query, 'the 2.167 name only').to.have.property('post.fields').and.not.have.property('tweet.fields');
    // The suspended account's post is not in the news: it is not searched.
    expect(news.data.map((post) => post.text)).to.not.include('$SOL to the moon, trust me');
  });

  it('then the suspended account is named in one warn line, counted by state in /metrics, and the users read are spend', async () => {
    const log = stack.worker.log();
    expect(log.match(/x: tracked account @rugpull_dev is suspended; its posts are not read/g)).to.have.length(1);
    const metrics = await (await fetch(`${apiUrl}/metrics`)).text();
    const sample = (series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(metrics)?.[1] ?? NaN);
    expect(sample('market_x_tracked_accounts{state="suspended"}')).to.equal(1);
    expect(sample('market_x_tracked_accounts{state="active"}')).to.equal(2);
    expect(sample('market_x_tracked_accounts{state="not_found"}')).to.equal(1);
    expect(sample('market_provider_spend_total{provider="x",unit="users"}')).to.be.at.least(2);
  });

  it('then the stats are computed without smart-stats, with distinct ranks, and the prepaid key keeps the Elfa refreshes at REFRESH_INTERVAL', async () => {
    const alice = (await http(`${apiUrl}/api/market/stats/CryptoAlice`)).json as { smartMoneyRank: number; indexScore: number };
    const bob = (await http(`${apiUrl}/api/market/stats/bob_trades`)).json as { smartMoneyRank: number; indexScore: number };
    expect([alice.smartMoneyRank, bob.smartMoneyRank].sort()).to.deep.equal([1, 2]);
    expect(alice.indexScore).to.not.equal(bob.indexScore);
    expect(fixtures.elfa.requestsTo('/v2/account/smart-stats')).to.have.length(0);
    const log = stack.worker.log();
    expect(log).to.match(
      /elfa: no credit budget \(the key status names no limit, billing deposit: a prepaid key\): trending and trending-cas refresh every REFRESH_INTERVAL, 30 min, 144 credits a day/,
    );
  });
});
