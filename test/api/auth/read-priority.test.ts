import { expect } from 'chai';
import { BUSY_SHARE, ReadPriority } from '../../../apps/api/src/auth/read-priority.js';
import { eventually } from '../../support/eventually.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the event loop busy with short blocking slices, as a stream of reads would. */
async function busyFor(ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const slice = performance.now() + 20;
    while (performance.now() < slice) {
      // spin
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('read priority: argon2 rationed while the event loop is busy', () => {
  const priority = new ReadPriority();
  after(() => priority.stop());
  const restAfterHash = (tookMs: number) => priority.restAfterHash(tookMs);

  it('when the API is idle, then hashing does not rest', async () => {
    restAfterHash(0); // starts the sampler
    await sleep(350);
    expect(restAfterHash(20)).to.equal(0);
  });

  it('when the event loop is busy, then each computation rests long enough to hold hashing to its share', async () => {
    restAfterHash(0);
    await busyFor(350);
    const rest = restAfterHash(20);
    expect(rest).to.be.closeTo((20 * (1 - BUSY_SHARE)) / BUSY_SHARE, 1e-9);
    expect(20 / (20 + rest)).to.be.closeTo(BUSY_SHARE, 1e-9);
  });

  it('when the load goes away, then hashing is back to full speed', async () => {
    await busyFor(350);
    expect(restAfterHash(20)).to.be.greaterThan(0);
    // The next sample of an idle loop (every 100 ms) lifts the rest.
    await eventually(() => (restAfterHash(20) === 0 ? true : undefined), 2_000, 'full speed');
  });
});
