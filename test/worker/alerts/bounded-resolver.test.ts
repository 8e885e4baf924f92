/**
 * Issue 46, item 7: webhook hosts are resolved by a bounded resolver (an injected query here,
 * never real DNS): a name that never answers fails at its deadline and delays no other name,
 * however many lookups of it are waiting; lookups of one name in flight are shared.
 */
import { expect } from 'chai';
import type { ResolvedAddress } from '../../../shared/alerts/address-policy.js';
import { boundedResolver } from '../../../shared/alerts/bounded-resolver.js';

describe('alerts: the bounded webhook-host resolver', () => {
  it('when 200 lookups of a name that never answers are waiting, then another name still resolves at once, and the slow ones fail at their deadline', async () => {
    const queried: string[] = [];
    const resolve = boundedResolver({
      timeoutMs: 300,
      concurrency: 4,
      query: (host) => {
        queried.push(host);
        return host === 'slow.test' ? new Promise<ResolvedAddress[]>(() => {}) : Promise.resolve([{ address: '93.184.216.34', family: 4 }]);
      },
    });
    const started = performance.now();
    const slow = Array.from({ length: 200 }, () =>
      resolve('slow.test').then(
        () => 'answered',
        (error: Error) => error.message,
      ),
    );
    const fast = await resolve('fast.test');
    expect(performance.now() - started, 'the other name is not held back').to.be.below(100);
    expect(fast).to.deep.equal([{ address: '93.184.216.34', family: 4 }]);
    const outcomes = await Promise.all(slow);
    expect(performance.now() - started).to.be.within(250, 1500);
    expect(new Set(outcomes)).to.deep.equal(new Set(['looking up slow.test took over 300 ms']));
    expect(
      queried.filter((host) => host === 'slow.test'),
      'one query shared by the 200',
    ).to.have.length(1);
  });

  it('when the name is localhost, then it is loopback without a query', async () => {
    const resolve = boundedResolver({ timeoutMs: 300, query: () => Promise.reject(new Error('queried')) });
    expect((await resolve('localhost')).map((a) => a.address)).to.deep.equal(['127.0.0.1', '::1']);
  });
});
