/**
 * The market routes end to end through the typed client (client/index.ts: openapi-fetch over
 * the types generated from /openapi.json), as an integrator's bot would call them. Every
 * response also goes through the document check the other integration tests use.
 */
import { expect } from 'chai';
import type { Middleware } from 'openapi-fetch';
import { createMarketSignalsClient, type MarketSignalsClient } from '../../client/index.js';
import { assertDocumented } from '../support/openapi-response.js';
import { eventually, startStack, type Stack } from '../support/stack.js';

const checkedAgainstDocument: Middleware = {
  async onResponse({ request, response }) {
    const body = Buffer.from(await response.clone().arrayBuffer());
    assertDocumented({ method: request.method, url: request.url, status: response.status, headers: response.headers, body });
  },
};

describe('market routes through the typed client (openapi-fetch + openapi-typescript)', () => {
  let stack: Stack;
  let client: MarketSignalsClient;

  before(async () => {
    stack = await startStack({ workers: 1 });
    client = createMarketSignalsClient(stack.apiUrl);
    client.use(checkedAgainstDocument);
    await eventually(async () => ((await client.GET('/readyz')).response.status === 200 ? true : undefined), 30_000, 'ready');
  });
  after(() => stack.close());

  it('when a bot polls trending with its ETag, then 200 with data, then 304 with no body', async () => {
    const first = await client.GET('/api/market/trending');
    expect(first.response.status).to.equal(200);
    expect(first.data?.data.length).to.be.greaterThan(0);
    expect(first.data?.data[0]).to.have.keys(['token', 'name', 'mentions', 'smartMoneyMentions', 'priceChange24h']);
    const etag = first.response.headers.get('etag') ?? '';
    const again = await client.GET('/api/market/trending', { headers: { 'If-None-Match': etag } });
    expect(again.response.status).to.equal(304);
    expect(again.data).to.equal(undefined);
  });

  it('when news is asked for a page, then the typed page and its pagination echo', async () => {
    const { data, response } = await client.GET('/api/market/news', { params: { query: { page: 2, limit: 5 } } });
    expect(response.status).to.equal(200);
    expect(data?.pagination).to.deep.include({ page: 2, limit: 5 });
    expect(data?.data.length).to.be.at.most(5);
  });

  it('when news is asked with a bad limit, then the typed 400 error', async () => {
    const { error, response } = await client.GET('/api/market/news', { params: { query: { limit: 0 } } });
    expect(response.status).to.equal(400);
    expect(error).to.deep.equal({ error: 'Invalid query parameter: limit' });
  });

  it('when trending contract addresses are asked, then 200 with addresses', async () => {
    const { data, response } = await client.GET('/api/market/trending-cas');
    expect(response.status).to.equal(200);
    expect(data?.data[0]?.address).to.be.a('string');
  });

  it('when stats are asked for an indexed author and an unknown one, then 200 and the typed 404', async () => {
    const news = await client.GET('/api/market/news', { params: { query: { limit: 1 } } });
    const author = news.data?.data[0]?.author ?? '';
    const found = await client.GET('/api/market/stats/{username}', { params: { path: { username: author } } });
    expect(found.response.status).to.equal(200);
    expect(found.data?.username.toLowerCase()).to.equal(author.toLowerCase());
    const missing = await client.GET('/api/market/stats/{username}', { params: { path: { username: 'nobody_here_0' } } });
    expect(missing.response.status).to.equal(404);
    expect(missing.error).to.deep.equal({ error: 'Username not found in index' });
  });

  it('when sentiment is asked on both paths, then the same typed record', async () => {
    const news = await client.GET('/api/market/news', { params: { query: { limit: 50 } } });
    const token = news.data?.data.find((item) => item.tokens.length > 0)?.tokens[0] ?? 'BTC';
    const ours = await client.GET('/api/market/sentiment/{token}', { params: { path: { token } } });
    const spec = await client.GET('/sentiment/{token}', { params: { path: { token } } });
    expect(ours.response.status).to.equal(200);
    expect(['bullish', 'bearish', 'neutral']).to.include(ours.data?.label);
    expect(spec.data).to.deep.equal(ours.data);
  });
});
