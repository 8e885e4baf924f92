import { expect } from 'chai';
import { elfaSchedule } from '../../../apps/worker/src/providers/elfa-budget.js';

const MINUTE = 60_000;

describe('the Elfa refresh interval a month of credits allows', () => {
  it('when the free plan (1,000 credits), then every 149 minutes: 300 rounds of 3 credits in 31 days, 90 % of the budget', () => {
    expect(elfaSchedule(1_000, 30 * MINUTE)).to.deep.equal({ intervalMs: 149 * MINUTE, budgetIntervalMs: 149 * MINUTE, creditsPerDay: 29 });
  });

  it('when Grow (40,000 credits), then the budget would allow 4 minutes, so REFRESH_INTERVAL (30 minutes) stands', () => {
    expect(elfaSchedule(40_000, 30 * MINUTE)).to.deep.equal({ intervalMs: 30 * MINUTE, budgetIntervalMs: 4 * MINUTE, creditsPerDay: 144 });
    expect(elfaSchedule(40_000, MINUTE).intervalMs).to.equal(4 * MINUTE);
  });

  it('when a month of scheduled rounds is spent at the chosen interval, then it fits the budget', () => {
    for (const credits of [3, 100, 1_000, 5_000, 40_000, 1_000_000]) {
      const { intervalMs } = elfaSchedule(credits, MINUTE);
      expect(Math.ceil((31 * 1440 * MINUTE) / intervalMs) * 3, String(credits)).to.be.at.most(Math.max(3, credits));
    }
  });
});
