import { expect } from 'chai';
import { respawnBackoff } from '../../apps/api/src/respawn.js';

describe('the API processes’ respawn backoff (WEB_CONCURRENCY > 1)', () => {
  it('when a process that ran a while exits, then the next starts at once', () => {
    const next = respawnBackoff();
    expect(next(5 * 60_000)).to.equal(0);
    expect(next(60_000)).to.equal(0);
  });

  it('when processes die soon after starting, again and again, then each wait doubles, up to 30 s', () => {
    const next = respawnBackoff();
    expect([1, 2, 3, 4, 5, 6, 7].map(() => next(200))).to.deep.equal([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  it('when a process lives long enough after a crash loop, then the delay starts over', () => {
    const next = respawnBackoff({ baseMs: 100, healthyMs: 1_000 });
    next(10);
    next(10);
    expect(next(1_000)).to.equal(0);
    expect(next(10)).to.equal(100);
  });
});
