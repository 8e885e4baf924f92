/**
 * GET /api/market/pairlist through the whole stack: the trending and mindshare rankings as the
 * pairs Freqtrade's RemotePairList loads, PAIRLIST_SYMBOLS applied, exclusions, a 400 naming what
 * is allowed, and the last good list served while the upstream fails.
 */
import { expect } from 'chai';
import { loadConfig } from '../../../shared/config.js';
import { REFRESH_QUEUE } from '../../../shared/queues.js';
import { http } from '../../support/http.js';
import { eventually, startStack, whenReady, type Stack } from '../../support/stack.js';

const SYMBOLS: Record<string, string> = { BONK: '1000BONK', PEPE: '1000PEPE', SOL: 'SOL2' };
const pairsOf = (tickers: string[], quote = 'USDT') => tickers.map((ticker) => `${SYMBOLS[ticker] ?? ticker}/${quote}`);

interface Pairlist {
  pairs: string[];
  refresh_period: number;
  cachedAt: string;
}

describe('GET /api/market/pairlist', function () {
  this.timeout(60_000);
  let stack: Stack;
  let trending: { data: { token: string }[]; cachedAt: string };

  before(async () => {
    stack = await startStack({
      env: {
        PAIRLIST_SYMBOLS: Object.entries(SYMBOLS)
          .map(([k, v]) => `${k}=${v}`)
          .join(','),
      },
    });
    await whenReady(stack);
    trending = (await http(`${stack.apiUrl}/api/market/trending`)).json as typeof trending;
  });
  after(async () => {
    await stack?.close();
  });

  it('when asked with no parameter, then it answers the top 20 trending tickers as /USDT pairs, mapped, with the seconds to the next refresh', async () => {
    const res = await http(`${stack.apiUrl}/api/market/pairlist`);
    expect(res.status).to.equal(200);
    const body = res.json as Pairlist;
    expect(body.pairs).to.deep.equal(pairsOf(trending.data.slice(0, 20).map((item) => item.token.toUpperCase())));
    expect(body.cachedAt).to.equal(trending.cachedAt);
    const left = (Date.parse(trending.cachedAt) + stack.config.refreshIntervalMs - Date.now()) / 1000;
    expect(body.refresh_period).to.be.within(Math.max(30, left - 5), Math.max(30, left + 1));
    expect(res.headers.get('cache-control')).to.equal(`public, max-age=${body.refresh_period}`);
  });

  it('when a ticker is in PAIRLIST_SYMBOLS, then its pair uses the exchange’s base', async () => {
    const body = (await http(`${stack.apiUrl}/api/market/pairlist?top=100&quote=usdc`)).json as Pairlist;
    const tickers = trending.data.map((item) => item.token.toUpperCase());
    const mapped = Object.keys(SYMBOLS).filter((ticker) => tickers.includes(ticker));
    expect(mapped, 'the simulator trends some mapped ticker').to.have.length.above(0);
    for (const ticker of mapped) expect(body.pairs).to.include(`${SYMBOLS[ticker]}/USDC`).and.not.include(`${ticker}/USDC`);
  });

  it('when tickers are excluded, then they are left out and the list still has `top` pairs', async () => {
    const [first, second] = trending.data.map((item) => item.token.toUpperCase());
    const body = (await http(`${stack.apiUrl}/api/market/pairlist?top=5&exclude=${first},${second?.toLowerCase()}`)).json as Pairlist;
    expect(body.pairs).to.deep.equal(pairsOf(trending.data.slice(2, 7).map((item) => item.token.toUpperCase())));
  });

  it('when the source is mindshare, then the pairs follow that window’s ranking', async () => {
    const ranking = (await http(`${stack.apiUrl}/api/market/mindshare?window=7d`)).json as { data: { token: string }[] };
    const body = (await http(`${stack.apiUrl}/api/market/pairlist?source=mindshare&window=7d&top=10`)).json as Pairlist;
    expect(body.pairs).to.deep.equal(pairsOf(ranking.data.slice(0, 10).map((item) => item.token)));
  });

  it('when a parameter is wrong, then 400 names it and what is allowed', async () => {
    const cases: [string, string][] = [
      ['source=volume', 'Invalid query parameter: source: one of trending, mindshare'],
      ['window=7d', 'Invalid query parameter: window: for trending, one of 24h'],
      ['source=mindshare&window=4h', 'Invalid query parameter: window: for mindshare, one of 1h, 24h, 7d, 30d'],
      ['top=0', 'Invalid query parameter: top: a whole number from 1 to 100'],
      ['top=abc', 'Invalid query parameter: top: a whole number from 1 to 100'],
      ['quote=US-DT', 'Invalid query parameter: quote: 1-20 letters or digits, such as USDT'],
      ['exclude=BTC,,ETH', 'Invalid query parameter: exclude: comma-separated tickers of 1-20 letters or digits, up to 100'],
    ];
    for (const [query, error] of cases) {
      const res = await http(`${stack.apiUrl}/api/market/pairlist?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.json, query).to.deep.equal({ error });
    }
  });

  it('when a refresh fails, then the last good list is still served', async () => {
    const before = (await http(`${stack.apiUrl}/api/market/pairlist`)).json as Pairlist;
    stack.sim.setFaults({ errorRate: 1 });
    try {
      await stack.deps.refreshAll();
      const queue = stack.queue(REFRESH_QUEUE);
      await eventually(
        async () =>
          (await queue.getJobs(['delayed', 'failed'])).some((job) => job.name.includes('trending') && job.failedReason) ? true : undefined,
        15_000,
        'a failed trending refresh',
      ).finally(() => queue.close());
      const during = (await http(`${stack.apiUrl}/api/market/pairlist`)).json as Pairlist;
      expect(during.pairs).to.deep.equal(before.pairs);
    } finally {
      stack.sim.clearFaults();
    }
  });
});

describe('PAIRLIST_SYMBOLS', () => {
  it('when malformed, then the configuration refuses it with one line naming it', () => {
    expect(() => loadConfig({ PAIRLIST_SYMBOLS: 'PEPE' })).to.throw(/^PAIRLIST_SYMBOLS: must be a comma-separated list of TICKER=BASE/);
    expect(loadConfig({ PAIRLIST_SYMBOLS: 'pepe=1000PEPE, bonk = 1000BONK' }).pairlistSymbols).to.deep.equal({
      PEPE: '1000PEPE',
      BONK: '1000BONK',
    });
  });
});
