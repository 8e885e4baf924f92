/** GET /api/export's part of the OpenAPI document (market/export-service.ts). */
import { z } from 'zod';
import { EXPORT_KINDS } from '../../../../../shared/history/export-states.js';
import { declarePaths } from '../../openapi/declare.js';
import { errorResponse, INTERNAL_ERROR, SERVICE_UNAVAILABLE, UNAUTHORIZED } from '../../openapi/responses.js';
import { EXPORT_BUDGET_KIND_DAYS, EXPORT_BUDGET_WINDOW_SECONDS, ExportQuerySchema } from '../../market/export-service.js';

/** The budget's window is an hour: its Retry-After is longer than other routes' (openapi/headers.ts). */
const BUDGET_RETRY_AFTER = {
  description: `Seconds until the user's export budget is whole again (1 to ${EXPORT_BUDGET_WINDOW_SECONDS}).`,
  schema: { type: 'integer' as const, format: 'int32', minimum: 1, maximum: EXPORT_BUDGET_WINDOW_SECONDS },
};

const NDJSON_EXAMPLE =
  '{"kind":"trending","id":"1795590000000-0","cachedAt":"2026-11-25T08:00:00.000Z","state":{"data":[{"token":"SOL","name":"Solana",' +
  '"mentions":812,"smartMoneyMentions":402,"priceChange24h":3.1}],"cachedAt":"2026-11-25T08:00:00.000Z"}}\n';

export const EXPORT_PATHS = declarePaths({
  '/api/export': {
    get: {
      operationId: 'export',
      summary: 'Every stored state of a range, for backtests',
      description:
        `Streams every state stored between \`from\` and \`to\` (within HISTORY_DAYS), oldest first, one per line: its kind, ` +
        'its history entry `id`, its `cachedAt` and the `state` exactly as it was served. For `trending` and `trending-cas` the state ' +
        'is the list `GET /api/market/<kind>?at=<cachedAt>` answers; for `news`, `sentiment` and `mindshare` it is the event ' +
        '`GET /api/market/stream` sent at that refresh (the new posts, the changed records, each window’s top ten). NDJSON by default; ' +
        'CSV has the columns kind, id, cachedAt, state (the JSON text). A range costs its size, in kind-days (a kind over one day ' +
        `or part of one is 1), from the user's budget of ${EXPORT_BUDGET_KIND_DAYS} kind-days an hour (more when HISTORY_DAYS is long: ` +
        `a whole retention of the ${EXPORT_KINDS.length} kinds always fits).`,
      tags: ['market'],
      security: [{ bearerAuth: [] }],
      requestParams: { query: ExportQuerySchema },
      responses: {
        '200': {
          description: 'The states, one per line, oldest first.',
          headers: {
            'Content-Disposition': {
              description: 'A file name for a browser: `attachment; filename="market-signals-export.<format>"`.',
              schema: { type: 'string', maxLength: 64 },
            },
          },
          content: {
            'application/x-ndjson': { schema: z.string(), examples: { trending: { summary: 'A trending state', value: NDJSON_EXAMPLE } } },
            'text/csv': { schema: z.string() },
          },
        },
        '400': errorResponse('Bad request', [
          [`Invalid query parameter: kinds: comma-separated, from ${EXPORT_KINDS.join(', ')}`, '`kinds` names another kind or is empty'],
          ['Invalid query parameter: from', '`from` is not an ISO 8601 date or date-time with a zone (likewise `to`)'],
          ['Invalid range: from is after to', '`from` is later than `to`'],
          ['Invalid query parameter: format: one of ndjson, csv', '`format` is another'],
        ]),
        '401': UNAUTHORIZED,
        '429': errorResponse(
          'Throttled',
          [['Export budget spent: <n> kind-days per hour, this range costs <m>', 'the range would overspend the user’s hourly budget']],
          { 'Retry-After': BUDGET_RETRY_AFTER },
        ),
        '500': INTERNAL_ERROR,
        '503': SERVICE_UNAVAILABLE,
      },
    },
  },
});
