/**
 * Elfa AI API v2 as docs/providers.md describes it: both envelopes (the aggregations' nested page
 * and the data endpoints' `data[]` + `metadata`), numbers sent as strings, nulls, extra fields,
 * `x-elfa-credits` on every answer, 401 without the key.
 */
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

export const ELFA_KEY = 'elfak_test_5e3cret_245c';
export const ETH_CA = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
export const SOL_CA = '7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr';

/** Elfa's smart stats of the tracked accounts (keyed lower case, as Elfa matches names). */
export const SMART_STATS: Record<string, Record<string, unknown>> = {
  cryptoalice: { followerCount: 52000, smartFollowerCount: 310, averageReach: 18000, averageEngagement: 240.5, smartFollowingCount: 95, newField: 'ignored' },
  bob_trades: { averageReach: '9000', averageEngagement: 80, smartFollowingCount: 40, followerCount: null },
};

const credits = { 'x-elfa-credits': '1' };

export function startElfaFixture(): Promise<FixtureServer> {
  return startFixtureServer(
    {
      '/v2/aggregations/trending-tokens': () => ({
        headers: credits,
        body: {
          success: true,
          data: {
            pageSize: 50,
            page: 1,
            total: 6,
            data: [
              { token: 'SOL', current_count: 120, previous_count: 90, change_percent: 33.3 },
              { token: '$pepe', current_count: 80, previous_count: 100, change_percent: -20, experimental: true },
              { token: 'BTC', current_count: '95', previous_count: '80', change_percent: '18.75' },
              { token: 'AXL', current_count: 40, previous_count: null, change_percent: null },
              { token: 'NEWCOIN', current_count: 12, previous_count: 0, change_percent: 0 },
              { token: 42, current_count: 'many' },
            ],
          },
        },
      }),
      '/v2/aggregations/trending-cas/twitter': () => ({
        headers: credits,
        body: {
          success: true,
          data: {
            pageSize: 50,
            page: 1,
            total: 2,
            data: [
              { contractAddress: ETH_CA, chain: 'ethereum', mentionCount: 10 },
              { contractAddress: SOL_CA, chain: 'solana', mentionCount: 30, extra: { nested: 1 } },
            ],
          },
        },
      }),
      // The same schema, in the data endpoints' envelope: both are accepted.
      '/v2/aggregations/trending-cas/telegram': () => ({
        headers: credits,
        body: {
          success: true,
          data: [
            { contractAddress: ETH_CA.toLowerCase(), chain: 'ethereum', mentionCount: '5' },
            { contractAddress: 'So11111111111111111111111111111111111111112', chain: 'solana', mentionCount: null },
          ],
          metadata: { total: 2, page: 1, pageSize: 50 },
        },
      }),
      '/v2/account/smart-stats': (request) => {
        const stats = SMART_STATS[(request.query.username ?? '').toLowerCase()];
        if (!stats) return { status: 404, headers: credits, body: { success: false, message: 'User not found' } };
        return { headers: credits, body: { success: true, data: stats } };
      },
      '/v2/key-status': () => ({
        headers: { 'x-elfa-credits': '0' },
        body: {
          success: true,
          data: {
            id: 7,
            key: 'elfak_...245c',
            name: 'fixture',
            status: 'active',
            tier: 'free',
            scopes: [],
            requestsPerMinute: null,
            usage: { monthly: 120, daily: 4 },
            limits: { monthly: 1000, daily: 100 },
            remainingRequests: { monthly: 880, daily: 96 },
          },
        },
      }),
      '/v2/ping': () => ({ body: { success: true, data: { message: 'pong' } } }),
    },
    (headers) => (headers['x-elfa-api-key'] === ELFA_KEY ? undefined : { status: 401, body: { error: 'Invalid API key' } }),
  );
}
