/** GET /api/market/pairlist's part of the OpenAPI document (market/pairlist.ts). */
import { declarePaths } from '../../openapi/declare.js';
import { CACHE_CONTROL, RETRY_AFTER } from '../../openapi/headers.js';
import { errorResponse, INTERNAL_ERROR, json, REDIS_DOWN } from '../../openapi/responses.js';
import { PAIRLIST_MAX_TOP, PairlistQuerySchema, PairlistSchema } from '../../market/pairlist.js';

export const PAIRLIST_PATHS = declarePaths({
  '/api/market/pairlist': {
    get: {
      operationId: 'pairlist',
      summary: 'A ranked list as trading pairs (Freqtrade RemotePairList)',
      description:
        'The trending or mindshare ranking as `BASE/QUOTE` pairs, best first, in Freqtrade’s RemotePairList format: ' +
        '`pairs` and `refresh_period`, the seconds until the ranking is refreshed. Tickers an exchange spells otherwise ' +
        'are mapped by the operator’s PAIRLIST_SYMBOLS (`PEPE=1000PEPE`). Built from the snapshot held, so a failed ' +
        'refresh leaves the last good list served.',
      tags: ['market'],
      requestParams: { query: PairlistQuerySchema },
      responses: {
        '200': {
          description: 'The pairs, the seconds to the next refresh, and the ranking’s time.',
          headers: { 'Cache-Control': CACHE_CONTROL },
          content: json(PairlistSchema, {
            trending: { value: { pairs: ['SOL/USDT', 'PEPE/USDT'], refresh_period: 1312, cachedAt: '2026-11-25T08:00:00.000Z' } },
          }),
        },
        '400': errorResponse('Bad request', [
          ['Invalid query parameter: source: one of trending, mindshare', '`source` is neither'],
          [
            'Invalid query parameter: window: for trending, one of 24h, ...',
            '`window` is not a window of the source (the message lists them)',
          ],
          [`Invalid query parameter: top: a whole number from 1 to ${PAIRLIST_MAX_TOP}`, '`top` is out of range or not a number'],
          ['Invalid query parameter: quote: 1-20 letters or digits, such as USDT', '`quote` is malformed'],
          ['Invalid query parameter: exclude: comma-separated tickers of 1-20 letters or digits, up to 100', '`exclude` is malformed'],
        ]),
        '500': INTERNAL_ERROR,
        '503': errorResponse(
          'Temporarily unavailable',
          [['Data temporarily unavailable', 'the ranking’s snapshot is absent and no refresh completed within 10 seconds'], REDIS_DOWN],
          { 'Retry-After': RETRY_AFTER },
        ),
      },
    },
  },
});
