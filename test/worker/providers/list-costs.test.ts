import { expect } from 'chai';
import { listCall } from '../../../apps/worker/src/providers/market-provider.js';
import { LIST_KINDS, listOf } from '../../../shared/snapshot-kinds.js';
import { startHarness, type Harness } from './helpers.js';

/** The kinds' table says what each list refresh costs (INDEX_PROVIDER=composite): the Elfa budget is spaced by it. */
describe('the list kinds’ declared upstream cost', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  for (const kind of LIST_KINDS) {
    it(`when ${kind} is fetched, then it spends at its source exactly the credits the table declares`, async () => {
      const { source, credits } = listOf(kind).cost;
      const { spend } = await h.spend(() => listCall(h.provider, kind)());
      expect(spend[source]?.credits ?? 0).to.equal(credits);
    });
  }
});
