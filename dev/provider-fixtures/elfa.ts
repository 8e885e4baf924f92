/**
 * Elfa AI API v2 as it answers today (docs/providers.md): both envelopes (the aggregations' nested
 * page and the data endpoints' `data[]` + `metadata`), numbers sent as strings, nulls, extra
 * fields, `x-elfa-credits` on every answer, 401 without the key, `/v2/account/smart-stats`
 * retired (404 or 410), the key status of a monthly plan or of a prepaid key.
 */
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

export const ELFA_KEY = 'elfak_test_5e3cret_245c';
export const ETH_CA = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
export const SOL_CA = '7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr';

/**
 * The tracked accounts' own posts as Elfa's keyword-mentions?accountName= lists them (keyed lower
 * case): `KeywordMentionV2`, nullable counts, `account` present or omitted. Our own data.
 */
export const ACCOUNT_POSTS: Record<string, { total: number; items: Record<string, unknown>[] }> = {
  ghost_acct: {
    total: 4,
    items: [
      mention('1899000000000000003', 'ghost_acct', { likeCount: 30, repostCount: 2, replyCount: 4, quoteCount: 1, bookmarkCount: 0 }),
      mention('1899000000000000002', undefined, { likeCount: 6, repostCount: 0, replyCount: 0, quoteCount: 0, bookmarkCount: null }),
      // No count at all: no engagement figure from this one.
      mention('1899000000000000001', 'ghost_acct', {
        likeCount: null,
        repostCount: null,
        replyCount: null,
        quoteCount: null,
        bookmarkCount: null,
      }),
    ],
  },
};

function mention(tweetId: string, username: string | undefined, counts: Record<string, number | null>): Record<string, unknown> {
  return {
    tweetId,
    link: `https://x.com/${username ?? 'i'}/status/${tweetId}`,
    ...counts,
    viewCount: null,
    mentionedAt: '2026-11-26T09:15:00+00:00',
    type: 'post',
    ...(username ? { account: { username, isVerified: false } } : {}),
    repostBreakdown: { smart: 0, ct: 1 },
  };
}

/**
 * What the fixture plays (tests switch it): the key status of a monthly plan, of a prepaid key
 * (`limits` and `remainingRequests` null), or with only `limits.monthly: null`; the retired
 * smart-stats route's answer (404 or 410); keyword-mentions live or gone (404 for every input).
 */
export interface ElfaMode {
  keyStatus: 'monthly' | 'prepaid' | 'monthly-null';
  smartStats: 404 | 410;
  accountPosts: 'live' | 'gone';
}

export interface ElfaFixture extends FixtureServer {
  mode: ElfaMode;
}

const credits = { 'x-elfa-credits': '1' };

/** `ApiKeyStatusDataV2` with every documented field, in each mode. */
function keyStatus(mode: ElfaMode['keyStatus']): Record<string, unknown> {
  const common = {
    id: 7,
    key: 'elfak_...245c',
    name: 'fixture',
    status: 'active',
    expiresAt: '2027-11-01T00:00:00.000Z',
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    isExpired: false,
    userId: 42,
    email: null,
    project: null,
    requestsPerMinute: 60,
    allowOverage: null,
    maxOverage: null,
    spendCapCredits: null,
    bonusCredits: 0,
    bonusCreditsExpiresAt: null,
    scopes: ['data', 'aggregations'],
    emailNotificationsEnabled: false,
    lastEmailSentAt: null,
    lastUsagePercentNotified: 0,
    spendAlertThreshold: null,
    spendAlertMaxFrequencyHours: 24,
    totalSpendAlerted: '0',
    hmacEnabled: false,
    athenaEnabled: false,
    newField: 'ignored',
  };
  if (mode === 'prepaid') {
    return {
      ...common,
      tier: 'payg',
      billingMode: 'deposit',
      depositCredits: 2500,
      dailyRequestLimit: 0,
      monthlyRequestLimit: 0,
      usage: { monthly: 310, daily: 12 },
      limits: null,
      remainingRequests: null,
    };
  }
  const limits = mode === 'monthly' ? { monthly: 1000, daily: 100 } : { monthly: null, daily: null };
  return {
    ...common,
    tier: 'free',
    billingMode: 'arrears',
    depositCredits: 0,
    dailyRequestLimit: limits.daily ?? 0,
    monthlyRequestLimit: limits.monthly ?? 0,
    usage: { monthly: 120, daily: 4 },
    limits,
    remainingRequests: mode === 'monthly' ? { monthly: 880, daily: 96 } : { monthly: null, daily: null },
  };
}

export async function startElfaFixture(): Promise<ElfaFixture> {
  const mode: ElfaMode = { keyStatus: 'monthly', smartStats: 404, accountPosts: 'live' };
  const server = await startFixtureServer(
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
      // Retired on 28 October 2026: nothing but an error, whoever is asked for.
      '/v2/account/smart-stats': () =>
        mode.smartStats === 410
          ? { status: 410, body: { success: false, error: 'Gone' } }
          : { status: 404, body: { success: false, message: 'Cannot GET /v2/account/smart-stats' } },
      '/v2/data/keyword-mentions': (request) => {
        if (mode.accountPosts === 'gone') return { status: 404, body: { success: false, message: 'Not Found' } };
        if (!request.query.keywords && !request.query.accountName)
          return { status: 400, body: { success: false, error: 'keywords or accountName is required' } };
        if (!request.query.timeWindow && !(request.query.from && request.query.to)) {
          return { status: 400, body: { success: false, error: 'You must provide either timeWindow or both from and to parameters' } };
        }
        const posts = ACCOUNT_POSTS[(request.query.accountName ?? '').toLowerCase()];
        // An account Elfa does not know: an empty page, cursor omitted.
        if (!posts) return { headers: credits, body: { success: true, data: [], metadata: { total: 0 } } };
        return { headers: credits, body: { success: true, data: posts.items, metadata: { total: posts.total, cursor: 1764148500000 } } };
      },
      '/v2/key-status': () => ({ headers: { 'x-elfa-credits': '0' }, body: { success: true, data: keyStatus(mode.keyStatus) } }),
      '/v2/ping': () => ({ body: { success: true, data: { message: 'pong' } } }),
    },
    (headers) => (headers['x-elfa-api-key'] === ELFA_KEY ? undefined : { status: 401, body: { error: 'Invalid API key' } }),
  );
  return Object.assign(server, { mode });
}

/** Elfa's 429 as its SDK's tests record it: `{"message": ...}` and the reset in epoch seconds. */
export function elfaRateLimited(resetInSeconds: number) {
  return {
    status: 429,
    headers: { 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + resetInSeconds) },
    body: { message: 'Rate limited' },
  };
}
