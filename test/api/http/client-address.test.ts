/**
 * Issue 28 item 5: an IPv6 client is one budget per network, not per address. The login
 * throttle and the stats miss budget count IPv6 by IPV6_SUBNET_PREFIX (default /64) and an
 * IPv4-mapped address as its IPv4 address.
 */
import { expect } from 'chai';
import { clientGroup } from '../../../apps/api/src/http/client-address.js';
import { addressFailuresKey } from '../../../apps/api/src/auth/throttle.js';
import { http, type HttpAnswer } from '../../support/http.js';
import { startStack, type Stack } from '../../support/stack.js';
import { clearThrottle, postLogin } from '../auth/helpers.js';

const ACCOUNT_ROUTE = '/v1/accounts/:username';

describe('clients counted by address or IPv6 network', function () {
  this.timeout(60_000);

  describe('clientGroup', () => {
    const cases: [string, number, string][] = [
      ['203.0.113.7', 64, '203.0.113.7'],
      ['::ffff:203.0.113.7', 64, '203.0.113.7'],
      ['::FFFF:cb00:7107', 64, '203.0.113.7'],
      ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', 64, '2001:db8:1:2::/64'],
      ['2001:DB8:1:2::9', 64, '2001:db8:1:2::/64'],
      ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', 48, '2001:db8:1::/48'],
      ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', 128, '2001:db8:1:2:aaaa:bbbb:cccc:dddd/128'],
      ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', 60, '2001:db8:1::/60'],
      ['fe80::1%eth0', 64, 'fe80::/64'],
      ['::1', 64, '::/64'],
    ];
    for (const [address, prefix, group] of cases) {
      it(`when the address is ${address} and the prefix /${prefix}, then the client is ${group}`, () => {
        expect(clientGroup(address, prefix)).to.equal(group);
      });
    }

    it('when the address is no IP at all, then a short digest stands for it', () => {
      const group = clientGroup('x'.repeat(10_000));
      expect(group).to.match(/^other:[0-9a-f]{32}$/);
      expect(clientGroup('x'.repeat(10_000))).to.equal(group);
    });
  });

  describe('with TRUST_PROXY=true', () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack({ env: { TRUST_PROXY: 'true', STATS_MISS_BUDGET: '20' } });
    });
    after(() => stack.close());
    beforeEach(() => clearThrottle(stack));

    it('when 100 addresses of one /64 each ask for an unknown username, then the upstream is asked at most 20 times (the budget)', async () => {
      stack.sim.resetStats();
      const answers: HttpAnswer[] = [];
      for (let i = 0; i < 100; i += 1) {
        const address = `2001:db8:77:1:${(i + 1).toString(16)}::${(i * 7 + 3).toString(16)}`;
        answers.push(await http(`${stack.apiUrl}/api/market/stats/nobody_v6_${i}`, { headers: { 'X-Forwarded-For': address } }));
      }
      const upstreamCalls = stack.sim.stats()[ACCOUNT_ROUTE] ?? 0;
      console.log(`      100 misses from 100 addresses of one /64 -> ${upstreamCalls} upstream calls (budget 20)`);
      expect(upstreamCalls).to.be.at.most(20);
      expect(answers.filter((a) => a.status === 429)).to.have.length.at.least(80);
      // Another /64 has a budget of its own.
      const other = await http(`${stack.apiUrl}/api/market/stats/nobody_v6_other`, { headers: { 'X-Forwarded-For': '2001:db8:77:2::1' } });
      expect(other.status).to.equal(404);
    });

    it('when 50 logins fail from 50 addresses of one /64, then the next from that network is 429, from another network not', async () => {
      for (let i = 0; i < 50; i += 1) {
        const res = await postLogin(
          stack,
          { email: `guess-${i % 7}@example.com`, password: 'wrong' },
          { headers: { 'X-Forwarded-For': `2001:db8:99:1::${(i + 1).toString(16)}` } },
        );
        expect(res.status, `failure ${i}`).to.equal(401);
      }
      const refused = await postLogin(
        stack,
        { email: 'someone@example.com', password: 'wrong' },
        { headers: { 'X-Forwarded-For': '2001:db8:99:1:ffff::1' } },
      );
      expect(refused.status).to.equal(429);
      const elsewhere = await postLogin(
        stack,
        { email: 'someone@example.com', password: 'wrong' },
        { headers: { 'X-Forwarded-For': '2001:db8:99:2::1' } },
      );
      expect(elsewhere.status).to.equal(401);
    });

    it('when failures come from an IPv4 address and its IPv4-mapped spelling, then they share one counter', async () => {
      await postLogin(stack, { email: 'mapped@example.com', password: 'wrong' }, { headers: { 'X-Forwarded-For': '198.51.100.23' } });
      await postLogin(
        stack,
        { email: 'mapped@example.com', password: 'wrong' },
        { headers: { 'X-Forwarded-For': '::ffff:198.51.100.23' } },
      );
      expect(await stack.redis.get(addressFailuresKey('198.51.100.23'))).to.equal('2');
    });
  });
});
