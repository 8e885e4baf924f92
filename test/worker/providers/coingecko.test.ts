import { expect } from 'chai';
import { providerKeys } from '../../../shared/provider-keys.js';
import { COINGECKO_KEY, COINGECKO_WRONG_HOST, coingeckoRateLimited } from '../../../dev/provider-fixtures/coingecko.js';
import { rejection, startHarness, type Harness } from './helpers.js';

describe('CoinGecko adapter against the documented wire shapes', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('when tickers are quoted, then one batched /coins/markets call with the demo key header, names and nullable 24-hour changes', async () => {
    h = await startHarness();
    const { result, spend } = await h.spend(() => h.adapters.coingecko.quotes(['SOL', 'BTC', 'PEPE', 'NEWCOIN']));
    expect(Object.fromEntries(result)).to.deep.equal({
      SOL: { name: 'Solana', priceChange24h: 3.2 },
      BTC: { name: 'Bitcoin', priceChange24h: -1.5 },
      PEPE: { name: 'Pepe', priceChange24h: null },
    });
    const requests = h.fixtures.coingecko.requests;
    expect(requests).to.have.length(1);
    expect(requests[0]!.path).to.equal('/api/v3/coins/markets');
    expect(requests[0]!.query).to.include({ vs_currency: 'usd', symbols: 'sol,btc,pepe,newcoin', include_tokens: 'top', per_page: '250' });
    expect(requests[0]!.headers['x-cg-demo-api-key']).to.equal(COINGECKO_KEY);
    expect(spend).to.deep.equal({ coingecko: { calls: 1, credits: 1, posts: 0 } });
  });

  it('when two coins share a ticker, then the highest ranked is taken and remembered', async () => {
    h = await startHarness();
    expect((await h.adapters.coingecko.quotes(['AXL'])).get('AXL')).to.deep.equal({ name: 'Axelar', priceChange24h: 2.5 });
    expect(await h.redis.hget(providerKeys.coingeckoIds(), 'AXL')).to.equal('axelar');
  });

  it('when the operator pins a ticker (COINGECKO_IDS), then that coin is used, asked by id', async () => {
    h = await startHarness({ COINGECKO_IDS: 'AXL:axl-inu' });
    expect((await h.adapters.coingecko.quotes(['AXL', 'SOL'])).get('AXL')).to.deep.equal({ name: 'AXL INU', priceChange24h: 40 });
    expect(h.fixtures.coingecko.requests.map((request) => request.query.ids ?? request.query.symbols)).to.deep.equal(['sol', 'axl-inu']);
  });

  it('when the plan is pro, then the key goes in x-cg-pro-api-key', async () => {
    h = await startHarness({ COINGECKO_PLAN: 'pro' });
    await h.adapters.coingecko.quotes(['SOL']);
    expect(h.fixtures.coingecko.requests[0]!.headers).to.include({ 'x-cg-pro-api-key': COINGECKO_KEY });
    expect(h.fixtures.coingecko.requests[0]!.headers).to.not.have.property('x-cg-demo-api-key');
  });

  it("when a key is used on the wrong host (400 with error_code 10011), then a non-retryable error with CoinGecko's reason and no key", async () => {
    h = await startHarness();
    h.fixtures.coingecko.script('/coins/markets', COINGECKO_WRONG_HOST);
    const error = await rejection(h.adapters.coingecko.quotes(['SOL']));
    expect(error.retryable).to.equal(false);
    expect(error.message).to.match(/HTTP 400 \(If you are using Demo API key/);
    expect(error.message).to.not.include(COINGECKO_KEY);
  });

  it('when keyless calls are refused (401 with error_code 10002), then the error line tells the operator to set a free Demo key in COINGECKO_API_KEY', async () => {
    h = await startHarness({ COINGECKO_API_KEY: '' });
    h.fixtures.coingecko.script('/coins/markets', {
      status: 401,
      body: {
        status: {
          timestamp: '2026-11-26T03:00:00.000+00:00',
          error_code: 10002,
          error_message: "API Key Missing. Please make sure you're using the right authentication method.",
        },
      },
    });
    const error = await rejection(h.adapters.coingecko.quotes(['SOL']));
    expect(error.retryable).to.equal(false);
    expect(h.fixtures.coingecko.requests[0]!.headers['x-cg-demo-api-key']).to.equal(undefined);
    const lines = h.logs.filter((line) => line.level === 50).map((line) => line.msg);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/error 10002.*set COINGECKO_API_KEY to a free Demo key/);
  });

  it('when rate limited (429 with Retry-After), then one wait and one more call', async () => {
    h = await startHarness();
    h.fixtures.coingecko.script('/coins/markets', coingeckoRateLimited(1));
    expect((await h.adapters.coingecko.quotes(['SOL'])).size).to.equal(1);
    expect(h.fixtures.coingecko.requests).to.have.length(2);
  });

  it('when no key is set and CoinGecko refuses keyless calls (401, error 10002), then one error line says to set a free Demo key; not retried', async () => {
    h = await startHarness({ COINGECKO_API_KEY: '' });
    h.fixtures.coingecko.mode.requireKey = true;
    const error = await rejection(h.adapters.coingecko.quotes(['SOL']));
    expect(error.retryable).to.equal(false);
    expect(h.fixtures.coingecko.requests[0]!.headers).to.not.have.property('x-cg-demo-api-key');
    const lines = h.logs.filter((line) => line.msg.startsWith('coingecko: HTTP 401'));
    expect(lines).to.have.length(1);
    expect(lines[0]!.msg).to.match(/set COINGECKO_API_KEY to a free Demo key/);
  });
});
