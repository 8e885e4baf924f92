import { expect } from 'chai';
import { createLimiter } from '../../../apps/api/src/auth/limiter.js';

/** A task that records how many run at once, and finishes when told. */
function tracker() {
  let active = 0;
  let peak = 0;
  const finishers: (() => void)[] = [];
  const promises: Promise<void>[] = [];
  const task = () => {
    const promise = new Promise<void>((resolve) => {
      active += 1;
      peak = Math.max(peak, active);
      finishers.push(() => {
        active -= 1;
        resolve();
      });
    });
    promises.push(promise);
    return promise;
  };
  return { task, finishers, promises, peak: () => peak, active: () => active };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the argon2 concurrency cap (createLimiter)', () => {
  it('when a caller arrives between a release and the woken waiter, then the cap still holds', async () => {
    const limited = createLimiter(1);
    const t = tracker();
    const first = limited(t.task);
    const second = limited(t.task); // queued
    await tick();
    expect(t.active()).to.equal(1);
    // A callback on the first task's promise runs right after the limiter's own release and
    // before the woken waiter resumes: exactly where a newcomer could slip past an `if` check.
    let third: Promise<void> | undefined;
    void t.promises[0]!.then(() => {
      third = limited(t.task);
    });
    t.finishers.shift()!();
    await tick();
    expect(t.peak(), 'most tasks at once').to.equal(1);
    t.finishers.shift()!();
    await tick();
    t.finishers.shift()!();
    await Promise.all([first, second, third]);
    expect(t.peak()).to.equal(1);
  });

  it('when many callers queue, then they run first come, first served, never more than the cap at once', async () => {
    const limited = createLimiter(2);
    const order: number[] = [];
    const t = tracker();
    const all = Array.from({ length: 8 }, (_, i) => limited(() => t.task().then(() => order.push(i))));
    for (let i = 0; i < 8; i += 1) {
      await tick();
      expect(t.active()).to.be.at.most(2);
      t.finishers.shift()!();
    }
    await Promise.all(all);
    expect(order).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(t.peak()).to.equal(2);
  });

  it('when a task fails, then its slot is released and the error reaches its caller', async () => {
    const limited = createLimiter(1);
    const failure = await limited(() => Promise.reject(new Error('boom'))).catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(Error).with.property('message', 'boom');
    expect(await limited(() => Promise.resolve('next'))).to.equal('next');
  });

  it('when a pause is asked after each task, then the slot rests that long before the next starts', async () => {
    const tookMs: number[] = [];
    const limited = createLimiter(1, {
      pauseAfter: (ms) => {
        tookMs.push(ms);
        return 50;
      },
    });
    const startedAt: number[] = [];
    const task = () => {
      startedAt.push(performance.now());
      return new Promise<void>((resolve) => setTimeout(resolve, 10));
    };
    await Promise.all([limited(task), limited(task), limited(task)]);
    expect(tookMs).to.have.length(3);
    for (const ms of tookMs) expect(ms).to.be.at.least(9);
    // Each start waits for the previous task (10 ms) and its rest (50 ms).
    expect(startedAt[1]! - startedAt[0]!).to.be.at.least(58);
    expect(startedAt[2]! - startedAt[1]!).to.be.at.least(58);
  });

  it('when more callers wait than allowed, then the next is refused at once and the others still run', async () => {
    const refusal = new Error('busy');
    const limited = createLimiter(1, { maxWaiting: 2, refuse: () => refusal });
    const t = tracker();
    const admitted = [limited(t.task), limited(t.task), limited(t.task)]; // one running, two waiting
    const refused = await limited(t.task).catch((error: unknown) => error);
    expect(refused).to.equal(refusal);
    for (let i = 0; i < 3; i += 1) {
      await tick();
      t.finishers.shift()!();
    }
    await Promise.all(admitted);
    expect(t.peak()).to.equal(1);
  });
});
