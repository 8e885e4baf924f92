/**
 * Issue 46, item 6: a firing announced while a client connects to GET /api/alerts/stream is
 * delivered, not a closed stream; and the feed never replays old firings as new.
 */
import { expect } from 'chai';
import type { AlertEvent } from '../../../shared/alerts/alert-types.js';
import { alertFiredChannel, alertKeys } from '../../../shared/keyspace.js';
import { SseClient } from '../../support/sse.js';
import { eventually, startStack, type Stack } from '../../support/stack.js';
import { seedUser, tokenFor } from '../auth/helpers.js';

const event = (n: number): AlertEvent => ({
  type: 'alert.fired',
  timestamp: new Date().toISOString(),
  data: {
    firingId: `msg_connect${n}`,
    ruleId: 'alr_connectrace00000',
    ruleName: 'race',
    condition: { type: 'rank', top: 3 },
    refreshedAt: new Date().toISOString(),
    part: 1,
    parts: 1,
    matches: [{ token: 'SOL', rank: 1, previousRank: null }],
  },
});

describe('alerts: the stream while clients connect', () => {
  let stack: Stack;
  let token: string;
  let userId: string;
  before(async () => {
    stack = await startStack({ workers: 0 });
    userId = (await seedUser(stack, 'uma@example.com', 'uma password 12')).id;
    token = await tokenFor(stack, 'uma@example.com', 'uma password 12');
  });
  after(() => stack.close());

  it('when firings are announced while clients connect (4 rounds of 5), then every stream stays open, replays nothing old and hears the next firing', async () => {
    // Old firings: a client connecting without Last-Event-ID must never get them.
    for (let n = 0; n < 5; n++) await stack.redis.xadd(alertKeys.firings(userId), '*', 'event', JSON.stringify(event(n)));
    for (let round = 1; round <= 4; round++) {
      let announcing = true;
      const announce = async () => {
        while (announcing) await stack.redis.publish(alertFiredChannel(), userId);
      };
      const announcer = announce();
      // Five at once: the most one user may hold open.
      const clients = await Promise.all(
        Array.from({ length: 5 }, () => SseClient.connect(`${stack.apiUrl}/api/alerts/stream`, { Authorization: `Bearer ${token}` })),
      );
      announcing = false;
      await announcer;
      expect(clients.map((client) => client.status)).to.deep.equal([200, 200, 200, 200, 200]);
      const closedSoon = (client: SseClient) =>
        Promise.race([client.ended.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 200))]);
      expect((await Promise.all(clients.map(closedSoon))).filter(Boolean), 'streams closed by the connect race').to.have.length(0);
      expect(
        clients.flatMap((client) => client.events),
        'nothing old replayed',
      ).to.deep.equal([]);

      await stack.redis.xadd(alertKeys.firings(userId), '*', 'event', JSON.stringify(event(100 + round)));
      await stack.redis.publish(alertFiredChannel(), userId);
      await eventually(() => (clients.every((client) => client.events.length === 1) ? true : undefined), 5000, 'the new firing everywhere');
      const heard = clients.map((client) => (JSON.parse(client.events[0]!.data) as AlertEvent).data.firingId);
      expect(new Set(heard)).to.deep.equal(new Set([`msg_connect${100 + round}`]));
      for (const client of clients) client.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
