import { expect } from 'chai';
import type { Simulator } from '../../apps/index-sim/src/server.js';
import { request, startAt } from './helpers.js';
import { eventually } from '../support/eventually.js';

describe('index simulator: faults', () => {
  let sim: Simulator;
  beforeEach(async () => {
    sim = await startAt();
  });
  afterEach(() => sim.close());

  it('when latency is set, then affected answers are delayed and others are not', async () => {
    sim.setFaults({ latencyMs: 400, paths: ['/v1/posts'] });
    let started = Date.now();
    expect((await request(`${sim.url}/v1/posts`)).status).to.equal(200);
    expect(Date.now() - started).to.be.at.least(350);
    started = Date.now();
    expect((await request(`${sim.url}/v1/trending/tokens`)).status).to.equal(200);
    expect(Date.now() - started).to.be.below(300);
  });

  it('when errorRate is 1, then every /v1 request fails with 500 and is still counted', async () => {
    sim.setFaults({ errorRate: 1 });
    for (let i = 0; i < 10; i++) {
      const res = await request(`${sim.url}/v1/trending/tokens`);
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({ error: 'internal' });
    }
    expect(sim.stats()['/v1/trending/tokens']).to.equal(10);
  });

  it('when errorRate is 0.5, then some requests fail and some succeed', async () => {
    sim.setFaults({ errorRate: 0.5 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await request(`${sim.url}/v1/accounts/CryptoKoala`)).status);
    expect(statuses.filter((s) => s === 500).length).to.be.within(8, 32);
    expect(statuses.filter((s) => s === 200).length).to.be.within(8, 32);
  });

  it('when rate limited, then /v1 answers 429 with Retry-After', async () => {
    sim.setFaults({ rateLimit: { retryAfter: 7 } });
    const res = await request(`${sim.url}/v1/posts`);
    expect(res.status).to.equal(429);
    expect(res.headers.get('retry-after')).to.equal('7');
    expect(res.body).to.deep.equal({ error: 'rate_limited' });
  });

  it('when malformed, then 200 answers rotate through broken JSON, wrong types and missing fields', async () => {
    sim.setFaults({ malformed: true });
    const [truncated, wrongType, missing] = [
      await request(`${sim.url}/v1/trending/tokens`),
      await request(`${sim.url}/v1/trending/tokens`),
      await request(`${sim.url}/v1/trending/tokens`),
    ];
    for (const res of [truncated, wrongType, missing]) expect(res?.status).to.equal(200);
    expect(() => JSON.parse(truncated?.text ?? '') as unknown).to.throw(SyntaxError);
    expect(wrongType?.body).to.deep.include({ tokens: 'oops' });
    expect(missing?.body).to.deep.equal({ tokens: [] });
    const posts = await request(`${sim.url}/v1/posts`);
    expect(() => JSON.parse(posts.text) as unknown).to.throw(SyntaxError);
  });

  it('when hang is set, then the client times out, control endpoints still answer and close() returns', async () => {
    sim.setFaults({ hang: true });
    let failure: unknown;
    try {
      await request(`${sim.url}/v1/trending/contracts`, { signal: AbortSignal.timeout(300) });
    } catch (error) {
      failure = error;
    }
    expect(failure).to.be.instanceOf(Error).with.property('name', 'TimeoutError');
    // A second request is left hanging on purpose: close() must not wait for it.
    const pending = fetch(`${sim.url}/v1/posts`).catch((error: unknown) => error);
    await eventually(() => (sim.stats()['/v1/posts'] === 1 ? true : undefined), 5000, 'the hanging request to arrive');
    expect((await request(`${sim.url}/__sim/faults`)).body).to.deep.include({ hang: true });
    const started = Date.now();
    await sim.close();
    expect(Date.now() - started).to.be.below(1000);
    expect(await pending).to.be.instanceOf(Error);
  });

  it('when faults are limited to paths, then other paths behave normally', async () => {
    sim.setFaults({ errorRate: 1, paths: ['/v1/accounts'] });
    expect((await request(`${sim.url}/v1/accounts/CryptoKoala`)).status).to.equal(500);
    expect((await request(`${sim.url}/v1/posts`)).status).to.equal(200);
  });

  it('when faults are replaced over HTTP, then unspecified switches turn off', async () => {
    const put = (body: string) =>
      request(`${sim.url}/__sim/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });
    expect((await put('{"errorRate":1,"latencyMs":10}')).status).to.equal(200);
    expect((await request(`${sim.url}/v1/posts`)).status).to.equal(500);
    const replaced = await put('{"rateLimit":{"retryAfter":3},"paths":["/v1/trending"]}');
    expect(replaced.body).to.deep.equal({
      latencyMs: 0,
      errorRate: 0,
      rateLimit: { retryAfter: 3 },
      malformed: false,
      hang: false,
      paths: ['/v1/trending'],
    });
    expect((await request(`${sim.url}/v1/posts`)).status).to.equal(200);
    expect((await request(`${sim.url}/v1/trending/tokens`)).status).to.equal(429);
    expect((await request(`${sim.url}/__sim/faults`, { method: 'DELETE' })).status).to.equal(200);
    expect((await request(`${sim.url}/v1/trending/tokens`)).status).to.equal(200);
  });

  it('when fault settings are invalid, then they are refused and the old ones stay', async () => {
    sim.setFaults({ errorRate: 1 });
    for (const body of ['{"errorRate":2}', '{"latencyMs":-1}', '{"sloth":true}', 'not json', '[]', '{"paths":"v1"}']) {
      const res = await request(`${sim.url}/__sim/faults`, { method: 'PUT', body });
      expect(res.status, body).to.equal(400);
      expect(res.body, body).to.deep.include({ error: 'bad_request' });
    }
    expect((await request(`${sim.url}/v1/posts`)).status).to.equal(500);
    expect(() => sim.setFaults({ errorRate: 1.5 })).to.throw(RangeError);
    sim.clearFaults();
    expect((await request(`${sim.url}/v1/posts`)).status).to.equal(200);
  });
});
