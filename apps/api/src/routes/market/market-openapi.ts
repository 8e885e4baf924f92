/**
 * The market routes' part of the OpenAPI document: each cached read from its entry in the reads
 * table (apps/api/src/market/reads.ts), and the event stream.
 */
import { z } from 'zod';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { NewsEventSchema, SentimentEventSchema } from '../../../../../shared/market-types.js';
import { BASE_LIST_KINDS as LIST_KINDS } from '../../../../../shared/snapshot-kinds.js';
import { LIST_READS, MARKET_READS, READ_NAMES, type ReadName } from '../../market/reads.js';
import { operationIdOf, type ErrorCase, type ReadSpec } from '../../market/read-spec.js';
import { declarePaths } from '../../openapi/declare.js';
import { CACHE_CONTROL, ETAG, RATE_LIMIT, RETRY_AFTER, X_ACCEL_BUFFERING } from '../../openapi/headers.js';
import { errorResponse, INTERNAL_ERROR, json, NOT_MODIFIED, REDIS_DOWN, type Header, type Response } from '../../openapi/responses.js';
import { StreamHeaderSchema, StreamQuerySchema } from './schema.js';

function withHeaders(response: Response, headers: Record<string, Header>): Response {
  return { ...response, headers: { ...response.headers, ...headers } };
}

function marketOk(description: string, schema: z.ZodType): Response {
  return { description, headers: { ETag: ETAG, 'Cache-Control': CACHE_CONTROL }, content: json(schema) };
}

const INVALID_ENCODING: ErrorCase = ['Invalid URL encoding', 'a path parameter is not valid percent-encoding (such as %E0 or %zz)'];
const SNAPSHOT_ABSENT: ErrorCase = [
  'Data temporarily unavailable',
  'the shared snapshot is absent and no refresh completed within 10 seconds, or a refresh that just failed holds asks back (Retry-After: the seconds left of its backoff)',
];

const KEY_BUDGET =
  "With an API key the key's own budget is charged instead of the address's: API_KEY_STATS_MISS_BUDGET, default 600 per 10 minutes (GET /api/auth/usage shows it).";

/** `:name` (Koa) as `{name}` (OpenAPI). */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** A cached market read's operation, from its entry in apps/api/src/market/reads.ts; the statuses every read shares are added here. */
function marketOperation(name: ReadName, read: ReadSpec): ZodOpenApiOperationObject {
  const { errors } = read;
  const limit = read.rateLimited ? RATE_LIMIT : {};
  const responses: Record<string, Response> = {
    '200': withHeaders(marketOk(read.ok, read.response), limit),
    '304': read.rateLimited ? withHeaders(NOT_MODIFIED, RATE_LIMIT) : NOT_MODIFIED,
  };
  const badRequest = [...(errors[400] ?? []), ...(read.params ? [INVALID_ENCODING] : [])];
  if (badRequest.length > 0) responses['400'] = errorResponse('Bad request', badRequest);
  if (errors[404]) responses['404'] = errorResponse('Not found', errors[404], read.rateLimited ? RATE_LIMIT : undefined);
  if (errors[429]) responses['429'] = errorResponse('Throttled', errors[429], { 'Retry-After': RETRY_AFTER, ...limit });
  responses['500'] = INTERNAL_ERROR;
  responses['503'] = errorResponse('Temporarily unavailable', [...(errors[503] ?? [SNAPSHOT_ABSENT]), REDIS_DOWN], {
    'Retry-After': RETRY_AFTER,
    ...limit,
  });
  return {
    operationId: operationIdOf(name),
    summary: read.summary,
    // The stats budget is per key for a keyed client (auth/api-key-auth.ts).
    description: read.rateLimited ? `${read.description} ${KEY_BUDGET}` : read.description,
    tags: ['market'],
    ...(read.params || read.query
      ? { requestParams: { ...(read.params ? { path: read.params } : {}), ...(read.query ? { query: read.query } : {}) } }
      : {}),
    responses,
  };
}

const EVENT_EXAMPLE =
  'retry: 2000\n\nid: 1795590000000\nevent: trending\ndata: {"data":[{"token":"BTC","name":"Bitcoin","mentions":1349,' +
  '"smartMoneyMentions":702,"priceChange24h":1.2}],"cachedAt":"2026-11-25T08:00:00.000Z"}\n\n: keep-alive\n\n';

const STREAM_OPERATION: ZodOpenApiOperationObject = {
  operationId: 'stream',
  summary: 'Server-sent events: one per refresh of each kind',
  description:
    `A \`text/event-stream\`. Each event has an \`event:\` kind and a JSON \`data:\` line: ${LIST_KINDS.map((kind) => `\`${kind}\``).join(' and ')} carry ` +
    `the new list (${LIST_KINDS.map((kind) => String(LIST_READS[kind].response.meta()?.id)).join(', ')}, as GET returns them), and so do their windows ` +
    '(`trending@1h`, `trending-cas@7d`: as GET returns them with `window`; only the windows of TRENDING_WINDOWS have events); `news` carries the posts new since the previous ' +
    'refresh (NewsEvent); `sentiment` carries the records that changed (SentimentEvent). Each event’s `id` is its cachedAt ' +
    'in ms: reconnecting with `Last-Event-ID` replays every later event (a kind more than STREAM_RESUME_MAX_EVENTS, default 10, behind comes once as its current state, data marked `"gap": true`: the list, the newest 50 posts, every sentiment record), in id order, then continues live, ' +
    'without gap or duplicate (the news and sentiment events of one refresh share their id). The server sends `retry: 2000` ' +
    'and a `: keep-alive` comment every 15 s. A client whose unsent data passes 1 MiB is disconnected (it may reconnect and ' +
    'resume). On shutdown every stream ends cleanly; clients reconnect, to another replica.',
  tags: ['market'],
  requestParams: { query: StreamQuerySchema, header: StreamHeaderSchema },
  responses: {
    '200': {
      description: 'The event stream; it does not end until the client leaves or the server shuts down.',
      headers: { 'X-Accel-Buffering': X_ACCEL_BUFFERING },
      content: {
        'text/event-stream': { schema: z.string(), examples: { trending: { summary: 'A trending event', value: EVENT_EXAMPLE } } },
      },
    },
    '400': errorResponse('Bad request', [
      ['Invalid query parameter: topics', '`topics` names an unknown kind, is empty, or is longer than every kind named once'],
      [
        'Invalid query parameter: topics: the configured windows are 24h, ...',
        '`topics` names a window not configured (TRENDING_WINDOWS): the message names those that are',
      ],
    ]),
    '500': INTERNAL_ERROR,
    '503': errorResponse(
      'Unavailable',
      [
        ['Too many stream clients', 'the process already holds STREAM_MAX_CLIENTS streams'],
        [
          'Too many stream clients from this address',
          'the process already holds STREAM_MAX_CLIENTS_PER_ADDRESS streams of this client address',
        ],
        ['Service unavailable', 'the process is shutting down'],
      ],
      { 'Retry-After': RETRY_AFTER },
    ),
  },
};

export const MARKET_PATHS = declarePaths({
  ...Object.fromEntries(
    READ_NAMES.map((name) => [openApiPath(MARKET_READS[name].path), { get: marketOperation(name, MARKET_READS[name]) }]),
  ),
  '/api/market/stream': { get: STREAM_OPERATION },
});

/** The stream's event payloads: not a response body of their own, so named as components. */
export const MARKET_SCHEMAS = { NewsEvent: NewsEventSchema, SentimentEvent: SentimentEventSchema };
