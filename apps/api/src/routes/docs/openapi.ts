/**
 * The OpenAPI 3.1 description of every route the API serves (service-interface.md, D1-D9).
 * GET /openapi.json serves it as it is; GET /docs renders it as HTML.
 * test/api/docs.test.ts checks it against the routers, so a new route must be added here.
 */

// The subset of OpenAPI 3.1 this document uses.
export type SchemaType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

export interface SchemaObject {
  $ref?: string;
  /** One type, or several (OpenAPI 3.1: `['integer', 'null']` for a nullable integer). */
  type?: SchemaType | SchemaType[];
  format?: string;
  description?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean;
  items?: SchemaObject;
  enum?: string[];
  const?: string | number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  default?: string | number;
  examples?: unknown[];
}

export interface ExampleObject {
  summary?: string;
  value: unknown;
}

export interface MediaTypeObject {
  schema: SchemaObject;
  examples?: Record<string, ExampleObject>;
}

export interface HeaderObject {
  description: string;
  schema: SchemaObject;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: SchemaObject;
}

export interface RequestBodyObject {
  required: boolean;
  description: string;
  content: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export type PathItemObject = Partial<Record<HttpMethod, OperationObject>>;

export interface SecuritySchemeObject {
  type: 'http';
  scheme: 'bearer';
  bearerFormat: 'JWT';
  description: string;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, SchemaObject>;
    securitySchemes: Record<string, SecuritySchemeObject>;
  };
}

// ---------------------------------------------------------------------------------------------
// Building blocks

const ref = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` });
const str = (description: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'string', description, ...extra });
const num = (description: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'number', description, ...extra });
const int = (description: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'integer', description, ...extra });
const timestamp = (description: string): SchemaObject => str(description, { format: 'date-time' });
const object = (description: string, properties: Record<string, SchemaObject>): SchemaObject => ({
  type: 'object',
  description,
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const json = (schema: SchemaObject, examples?: Record<string, ExampleObject>): Record<string, MediaTypeObject> => ({
  'application/json': examples ? { schema, examples } : { schema },
});

const RETRY_AFTER: HeaderObject = { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } };
const WWW_AUTHENTICATE: HeaderObject = { description: 'Always `Bearer` on a 401.', schema: { type: 'string', const: 'Bearer' } };
const ETAG: HeaderObject = { description: 'Strong entity tag of the body; send it back in If-None-Match.', schema: { type: 'string' } };
const CACHE_CONTROL: HeaderObject = {
  description: '`public, max-age=<seconds until the cached entry expires>`.',
  schema: { type: 'string' },
};

/** One error status: the description names every message; each message is also an example body. */
function errorResponse(summary: string, cases: [message: string, condition: string][], headers?: Record<string, HeaderObject>): ResponseObject {
  const description = `${summary}: ${cases.map(([message, condition]) => `"${message}" when ${condition}`).join('; ')}.`;
  const examples: Record<string, ExampleObject> = {};
  for (const [message, condition] of cases) examples[message] = { summary: condition, value: { error: message } };
  return { description, ...(headers ? { headers } : {}), content: json(ref('Error'), examples) };
}

const INTERNAL_ERROR = errorResponse('Unexpected failure', [['Internal server error', 'anything unexpected happens (never a stack trace)']]);
const REDIS_DOWN: [string, string] = ['Service unavailable', 'Redis is unreachable (answered within 1 second)'];
const SERVICE_UNAVAILABLE = errorResponse('Temporarily unavailable', [REDIS_DOWN], { 'Retry-After': RETRY_AFTER });
const NOT_MODIFIED: ResponseObject = {
  description: 'Not Modified: If-None-Match matched the current ETag; no body.',
  headers: { ETag: ETAG, 'Cache-Control': CACHE_CONTROL },
};
const UNAUTHORIZED = errorResponse(
  'Unauthorized',
  [
    ['Missing token', 'no `Authorization: Bearer <token>` header is sent'],
    ['Invalid token', 'the token is malformed, has a bad signature or algorithm, claims more than a 24 h life, was issued before a password change, or its user no longer exists'],
    ['Token expired', 'the token is past its `exp`'],
  ],
  { 'WWW-Authenticate': WWW_AUTHENTICATE },
);
const SNAPSHOT_UNAVAILABLE = errorResponse(
  'Temporarily unavailable',
  [['Data temporarily unavailable', 'the shared snapshot is absent and no refresh completed within 10 seconds'], REDIS_DOWN],
  { 'Retry-After': RETRY_AFTER },
);

function marketOk(description: string, schema: SchemaObject): ResponseObject {
  return {
    description,
    headers: { ETag: ETAG, 'Cache-Control': CACHE_CONTROL, 'Access-Control-Allow-Origin': { description: 'Always `*`.', schema: { type: 'string', const: '*' } } },
    content: json(schema),
  };
}

const USERNAME_PARAM: ParameterObject = {
  name: 'username',
  in: 'path',
  required: true,
  description: 'Social-network username without the leading @ (a leading @ is dropped); 1-15 of [A-Za-z0-9_], matched case-insensitively.',
  schema: { type: 'string', pattern: '^@?[A-Za-z0-9_]{1,15}$' },
};

const TOKEN_PARAM: ParameterObject = {
  name: 'token',
  in: 'path',
  required: true,
  description: 'Token ticker; an optional leading $ is dropped; 1-20 of [A-Za-z0-9], matched case-insensitively.',
  schema: { type: 'string', pattern: '^\\$?[A-Za-z0-9]{1,20}$' },
};

function sentimentOperation(operationId: string, summary: string): OperationObject {
  return {
    operationId,
    summary,
    description:
      'Sentiment of the index posts mentioning the token in the current window. ' +
      'GET /api/market/sentiment/{token} and GET /sentiment/{token} answer byte-identically. ' +
      'Refreshed together with the news snapshot (30 minutes, one shared entry).',
    tags: ['market'],
    parameters: [TOKEN_PARAM],
    responses: {
      '200': marketOk('The sentiment record of the token.', ref('SentimentRecord')),
      '304': NOT_MODIFIED,
      '400': errorResponse('Bad request', [['Invalid token', 'the ticker is not 1-20 of [A-Za-z0-9] after an optional $']]),
      '404': errorResponse('Not found', [['Token not found in index', 'no post in the current window mentions the token']]),
      '500': INTERNAL_ERROR,
      '503': SNAPSHOT_UNAVAILABLE,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The document

export const openApiDocument: OpenApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Market Signals API',
    version: '0.1.0',
    description:
      'Read-only market and social-signal data about crypto tokens, contract addresses and social-network accounts, ' +
      'derived from an upstream index of smart money accounts, plus a login that issues a signed JWT. ' +
      'Every error body is JSON `{ "error": string }`. Unknown paths answer 404 "Not found"; a known path with a wrong ' +
      'method answers 405 "Method not allowed" with an Allow header.',
  },
  tags: [
    { name: 'auth', description: 'Login and bearer-protected routes.' },
    { name: 'market', description: 'Public, cached market reads (no authentication).' },
    { name: 'operations', description: 'Liveness, readiness, metrics and documentation.' },
  ],
  paths: {
    '/api/auth/login': {
      post: {
        operationId: 'login',
        summary: 'Exchange an email and password for a signed JWT',
        description:
          'Emails are trimmed and compared case-insensitively. More than 10 failures for one email, or more than 50 ' +
          'from one client address (counted only with TRUST_PROXY), within 15 minutes are throttled with 429. ' +
          'A gzip, deflate or br body that does not decompress is `Invalid JSON body`; another encoding is 415.',
        tags: ['auth'],
        requestBody: {
          required: true,
          description: 'A JSON object with a non-empty `email` and `password` (at most 16 KiB).',
          content: json(ref('LoginRequest'), {
            login: { value: { email: 'demo@example.com', password: 'demo-password' } },
          }),
        },
        responses: {
          '200': {
            description: 'The signed token and its lifetime in seconds (86400).',
            content: json(ref('LoginResponse')),
          },
          '400': errorResponse('Bad request', [
            ['Missing fields', '`email` or `password` is missing, not a string, or empty'],
            ['Invalid JSON body', 'the body is malformed JSON, or its Content-Encoding does not decompress'],
          ]),
          '401': errorResponse('Unauthorized', [['Invalid credentials', 'the email is unknown or the password is wrong']]),
          '413': errorResponse('Payload too large', [['Payload too large', 'the body is over 16 KiB']]),
          '415': errorResponse('Unsupported media type', [['Unsupported media type', 'the Content-Type is not JSON, or the Content-Encoding is not gzip, deflate or br']]),
          '429': errorResponse('Throttled', [['Too many login attempts', 'too many failures for the email or the client address in 15 minutes']], {
            'Retry-After': RETRY_AFTER,
          }),
          '500': INTERNAL_ERROR,
          '503': SERVICE_UNAVAILABLE,
        },
      },
    },
    '/api/auth/me': {
      get: {
        operationId: 'me',
        summary: 'The user the bearer token belongs to',
        tags: ['auth'],
        security: [{ bearerAuth: [] }],
        responses: {
          '200': { description: 'The authenticated user.', content: json(ref('User')) },
          '401': UNAUTHORIZED,
          '500': INTERNAL_ERROR,
          '503': SERVICE_UNAVAILABLE,
        },
      },
    },
    '/api/admin/refresh': {
      post: {
        operationId: 'adminRefresh',
        summary: 'Refresh the shared snapshots now (role admin)',
        tags: ['auth'],
        security: [{ bearerAuth: [] }],
        responses: {
          '202': {
            description: 'The refresh of the shared snapshots was requested.',
            content: json(object('Acknowledgement.', { status: str('Always "refresh requested".', { const: 'refresh requested' }) })),
          },
          '401': UNAUTHORIZED,
          '403': errorResponse('Forbidden', [['Forbidden', 'the user does not have the role admin']]),
          '500': INTERNAL_ERROR,
          '503': SERVICE_UNAVAILABLE,
        },
      },
    },
    '/api/market/trending': {
      get: {
        operationId: 'trending',
        summary: 'Top trending tokens',
        description: 'Ranked by smart money social activity. Cached for 30 minutes (one shared entry).',
        tags: ['market'],
        responses: {
          '200': marketOk('Trending tokens and the time of the last cache refresh.', ref('TrendingTokenList')),
          '304': NOT_MODIFIED,
          '500': INTERNAL_ERROR,
          '503': SNAPSHOT_UNAVAILABLE,
        },
      },
    },
    '/api/market/news': {
      get: {
        operationId: 'news',
        summary: 'Latest posts from tracked accounts',
        description:
          'Newest first. Pages are stable slices of one snapshot; a page past the end answers 200 with `data: []` and the ' +
          'same pagination echo. Cached for 30 minutes (one shared entry).',
        tags: ['market'],
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            description:
              'Number of items to return: a positive whole number in decimal digits, default 20, maximum 50 ' +
              '(a larger value is clamped to 50, and the pagination echo says 50).',
            schema: { type: 'integer', minimum: 1, default: 20 },
          },
          {
            name: 'page',
            in: 'query',
            required: false,
            description: 'Page number: a positive whole number in decimal digits, default 1.',
            schema: { type: 'integer', minimum: 1, default: 1 },
          },
        ],
        responses: {
          '200': marketOk('One page of news items, the pagination echo and the time of the last cache refresh.', ref('NewsPage')),
          '304': NOT_MODIFIED,
          '400': errorResponse('Bad request', [
            ['Invalid query parameter: limit', '`limit` is not a positive whole number in decimal digits (abc, 0, -1, 2.5, 1e3, empty)'],
            ['Invalid query parameter: page', '`page` is not a positive whole number in decimal digits'],
          ]),
          '500': INTERNAL_ERROR,
          '503': SNAPSHOT_UNAVAILABLE,
        },
      },
    },
    '/api/market/trending-cas': {
      get: {
        operationId: 'trendingCas',
        summary: 'Trending contract addresses',
        description: 'Cached for 30 minutes (one shared entry).',
        tags: ['market'],
        responses: {
          '200': marketOk('Trending contract addresses and the time of the last cache refresh.', ref('TrendingCaList')),
          '304': NOT_MODIFIED,
          '500': INTERNAL_ERROR,
          '503': SNAPSHOT_UNAVAILABLE,
        },
      },
    },
    '/api/market/stats/{username}': {
      get: {
        operationId: 'usernameStats',
        summary: 'Influence statistics for a username',
        description:
          'Cached for 1 hour, one entry per username; the response spells the username as the index does. ' +
          'A miss is remembered for 10 minutes. A lookup that must ask the upstream is charged to the client address: ' +
          '60 per 10 minutes, then 429 with the IETF draft RateLimit fields.',
        tags: ['market'],
        parameters: [USERNAME_PARAM],
        responses: {
          '200': marketOk('The statistics of the username.', ref('UsernameStats')),
          '304': NOT_MODIFIED,
          '400': errorResponse('Bad request', [['Invalid username', 'the username is not 1-15 of [A-Za-z0-9_] after an optional @']]),
          '404': errorResponse('Not found', [['Username not found in index', 'the username is not in the smart money index']]),
          '429': errorResponse('Throttled', [['Too many requests', 'the client address has spent its budget of upstream lookups']], {
            'Retry-After': RETRY_AFTER,
            RateLimit: { description: 'IETF draft: `"stats-misses";r=<remaining>;t=<seconds to reset>`.', schema: { type: 'string' } },
            'RateLimit-Policy': { description: 'IETF draft: `"stats-misses";q=<quota>;w=<window seconds>`.', schema: { type: 'string' } },
          }),
          '500': INTERNAL_ERROR,
          '503': errorResponse(
            'Temporarily unavailable',
            [['Upstream unavailable', 'no cached entry exists and the upstream index is unreachable (answered within 10 seconds)'], REDIS_DOWN],
            { 'Retry-After': RETRY_AFTER },
          ),
        },
      },
    },
    '/api/market/sentiment/{token}': {
      get: sentimentOperation('tokenSentiment', 'Sentiment score for one token'),
    },
    '/sentiment/{token}': {
      get: sentimentOperation('tokenSentimentAlias', 'Sentiment score for one token (the spec\'s literal path)'),
    },
    '/healthz': {
      get: {
        operationId: 'healthz',
        summary: 'Liveness',
        tags: ['operations'],
        responses: {
          '200': { description: 'The process is alive.', content: json(object('Liveness.', { status: str('Always "ok".', { const: 'ok' }) })) },
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'readyz',
        summary: 'Readiness: Redis answers and the shared snapshots exist',
        tags: ['operations'],
        responses: {
          '200': { description: 'Ready to serve.', content: json(object('Readiness.', { status: str('Always "ready".', { const: 'ready' }) })) },
          '503': errorResponse(
            'Not ready',
            [['Not ready: no snapshot yet for <names>', 'a shared snapshot does not exist yet'], REDIS_DOWN],
            { 'Retry-After': RETRY_AFTER },
          ),
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        summary: 'Prometheus metrics',
        tags: ['operations'],
        responses: {
          '200': {
            description: 'Metrics in the Prometheus text exposition format.',
            content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } },
          },
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openApiDocument',
        summary: 'This OpenAPI 3.1 document',
        tags: ['operations'],
        responses: {
          '200': {
            description: 'The OpenAPI document, with ETag and Cache-Control (max-age 3600).',
            headers: { ETag: ETAG },
            content: json({ type: 'object', description: 'An OpenAPI 3.1.0 document.' }),
          },
          '304': { description: 'Not Modified: If-None-Match matched the current ETag; no body.' },
        },
      },
    },
    '/docs': {
      get: {
        operationId: 'docs',
        summary: 'Human-readable documentation of this API',
        tags: ['operations'],
        responses: {
          '200': {
            description: 'A self-contained HTML page rendered from this document.',
            content: { 'text/html; charset=utf-8': { schema: { type: 'string' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Error: object('Every error body.', { error: str('Error message.', { examples: ['Not found'] }) }),
      LoginRequest: object('Body of POST /api/auth/login.', {
        email: str('User email address.', { format: 'email', minLength: 1 }),
        password: str('User password.', { minLength: 1 }),
      }),
      LoginResponse: object('Response of POST /api/auth/login.', {
        token: str('Signed JWT (HS256), sent later as `Authorization: Bearer <token>`.'),
        expiresIn: num('Token lifetime in seconds; the value is 86400 (24 hours).', { const: 86400 }),
      }),
      User: object('The authenticated user.', {
        id: str('User id (the token subject).', { format: 'uuid' }),
        email: str('Normalised email (trimmed, lower case).', { format: 'email' }),
        role: str('Role of the user.', { enum: ['admin', 'user'] }),
        createdAt: timestamp('When the user was created.'),
      }),
      TrendingToken: object('A trending token.', {
        token: str('Token ticker symbol.'),
        name: str('Full token name.'),
        mentions: num('Total social mentions in the window.'),
        smartMoneyMentions: num('Mentions from smart money accounts.'),
        priceChange24h: num('24-hour price change, as a percentage.'),
      }),
      TrendingTokenList: object('Trending tokens, ranked by smart money social activity.', {
        data: { type: 'array', items: ref('TrendingToken') },
        cachedAt: timestamp('ISO timestamp of the last cache refresh.'),
      }),
      NewsItem: object('A post from a tracked account.', {
        id: str('Unique post identifier.'),
        text: str('Post content.'),
        author: str('Social-network username of the author.'),
        authorFollowers: num('Author follower count.'),
        publishedAt: timestamp('ISO timestamp of publication.'),
        tokens: { type: 'array', description: 'Tokens mentioned in the post.', items: { type: 'string' } },
        engagementScore: num('Engagement signal score from the index.'),
      }),
      Pagination: object('Echo of the effective request values and the total item count.', {
        page: int('Effective page number.', { minimum: 1 }),
        limit: int('Effective limit (at most 50).', { minimum: 1, maximum: 50 }),
        total: int('Total item count.', { minimum: 0 }),
      }),
      NewsPage: object('One page of news.', {
        data: { type: 'array', description: 'Items of the requested page.', items: ref('NewsItem') },
        pagination: ref('Pagination'),
        cachedAt: timestamp('ISO timestamp of the last cache refresh.'),
      }),
      TrendingCa: object('A trending contract address.', {
        address: str('Contract address.'),
        chain: str('Chain identifier (for example ethereum, solana).'),
        mentions: num('Total mentions in the current window.'),
        smartMoneyMentions: num('Mentions from smart money accounts.'),
        firstSeenAt: timestamp('ISO timestamp of when the address first appeared in the index.'),
      }),
      TrendingCaList: object('Trending contract addresses.', {
        data: { type: 'array', items: ref('TrendingCa') },
        cachedAt: timestamp('ISO timestamp of the last cache refresh.'),
      }),
      UsernameStats: object('Influence statistics of a social-network username.', {
        username: str('Social-network username, spelled as the index does.'),
        indexScore: num('Influence score assigned by the index, range 0 to 100.', { minimum: 0, maximum: 100 }),
        smartMoneyRank: num('Rank within the smart money index.'),
        totalPosts: num('Total indexed posts.'),
        avgEngagement: num('Average engagement score per post.'),
        topTokens: { type: 'array', description: 'Most mentioned token tickers.', items: { type: 'string' } },
        cachedAt: timestamp('ISO timestamp of the last cache refresh.'),
      }),
      SentimentRecord: object('Sentiment of one token (D2).', {
        token: str('The ticker as the index spells it (upper case).'),
        score: num('Engagement-weighted mean polarity of the posts mentioning the token, in [-1, 1].', { minimum: -1, maximum: 1 }),
        label: str('bullish when score >= 0.15, bearish when score <= -0.15, else neutral.', { enum: ['bullish', 'bearish', 'neutral'] }),
        mentions: int('Posts analysed.', { minimum: 0 }),
        positive: int('Posts in the positive polarity class.', { minimum: 0 }),
        neutral: int('Posts in the neutral polarity class.', { minimum: 0 }),
        negative: int('Posts in the negative polarity class.', { minimum: 0 }),
        cachedAt: timestamp('Refresh time of the snapshot it was computed from.'),
      }),
    },
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'The token from POST /api/auth/login, as `Authorization: Bearer <token>`.',
      },
    },
  },
};

// =============================================================================================
// Issue 12: history routes, `?at=` and the event stream, in one block of their own.
// The document is being regenerated from zod schemas on another branch (issue 13); when that
// lands, these entries move into its mechanism and this block goes away.

const nullable = (description: string, type: 'integer' | 'number'): SchemaObject => ({ type: [type, 'null'], description });

const HISTORY_QUERY: ParameterObject[] = [
  {
    name: 'from',
    in: 'query',
    required: false,
    description: 'Start of the range, ISO 8601 (a date, or a date and time with Z or an offset). Default: 24 h before `to`.',
    schema: { type: 'string', format: 'date-time' },
  },
  {
    name: 'to',
    in: 'query',
    required: false,
    description: 'End of the range, ISO 8601. Default: the latest refresh. A range reaching beyond retention (HISTORY_DAYS) answers with what exists.',
    schema: { type: 'string', format: 'date-time' },
  },
  {
    name: 'interval',
    in: 'query',
    required: false,
    description:
      '`30m`: every refresh, at its cachedAt. `1h`, `4h`, `1d`: buckets aligned to UTC, each point at its bucket start. At most 1,000 points, the newest.',
    schema: { type: 'string', enum: ['30m', '1h', '4h', '1d'], default: '30m' },
  },
];

const HISTORY_BAD_REQUEST = errorResponse('Bad request', [
  ['Invalid token', 'the ticker is not 1-20 of [A-Za-z0-9] after an optional $'],
  ['Invalid query parameter: from', '`from` is not an ISO 8601 date or date-time with a zone (likewise `to`)'],
  ['Invalid query parameter: interval', '`interval` is not 30m, 1h, 4h or 1d'],
  ['Invalid range: from is after to', '`from` is later than `to`'],
]);

function historyOperation(operationId: string, summary: string, description: string, schema: string): OperationObject {
  return {
    operationId,
    summary,
    description: `${description} Written by the worker with each refresh, kept HISTORY_DAYS (default 30).`,
    tags: ['market'],
    parameters: [TOKEN_PARAM, ...HISTORY_QUERY],
    responses: {
      '200': marketOk('The series and the time of the latest refresh.', ref(schema)),
      '304': NOT_MODIFIED,
      '400': HISTORY_BAD_REQUEST,
      '404': errorResponse('Not found', [['Token not found in index', 'the token has no history within retention']]),
      '500': INTERNAL_ERROR,
      '503': SNAPSHOT_UNAVAILABLE,
    },
  };
}

const AT_PARAM: ParameterObject = {
  name: 'at',
  in: 'query',
  required: false,
  description: 'An instant (ISO 8601): answer the snapshot that was current then, with its own cachedAt. Without it, the current snapshot.',
  schema: { type: 'string', format: 'date-time' },
};

for (const path of ['/api/market/trending', '/api/market/trending-cas'] as const) {
  const operation = openApiDocument.paths[path]?.get;
  if (!operation) throw new Error(`openapi: ${path} is missing`);
  operation.parameters = [...(operation.parameters ?? []), AT_PARAM];
  operation.responses['400'] = errorResponse('Bad request', [['Invalid query parameter: at', '`at` is not an ISO 8601 date or date-time with a zone']]);
  operation.responses['404'] = errorResponse('Not found', [['No snapshot at that time', '`at` is before retention or before the first snapshot']]);
}

const EVENT_EXAMPLE =
  'retry: 2000\n\nid: 1795590000000\nevent: trending\ndata: {"data":[{"token":"BTC","name":"Bitcoin","mentions":1349,"smartMoneyMentions":702,"priceChange24h":1.2}],"cachedAt":"2026-11-25T08:00:00.000Z"}\n\n: keep-alive\n\n';

Object.assign(openApiDocument.paths, {
  '/api/market/sentiment/{token}/history': {
    get: historyOperation(
      'sentimentHistory',
      'A token’s sentiment over time',
      'Counts are summed within a bucket; the score is the mention-weighted mean, and the label follows it (D2).',
      'SentimentHistory',
    ),
  },
  '/api/market/tokens/{token}/history': {
    get: historyOperation(
      'tokenHistory',
      'A token’s trending figures over time',
      'One point per refresh (or bucket): the best rank, mentions summed over the refreshes where the token was listed, the last price change; all null where it was out of the list.',
      'TokenHistory',
    ),
  },
  '/api/market/stream': {
    get: {
      operationId: 'stream',
      summary: 'Server-sent events: one per refresh of each kind',
      description:
        'A `text/event-stream`. Events (`event:` field; `data:` a JSON object): `trending` and `trending-cas` carry the new list ' +
        '(TrendingTokenList, TrendingCaList, as GET returns them); `news` carries the posts new since the previous refresh ' +
        '(NewsEvent); `sentiment` carries the records that changed (SentimentEvent). Each event’s `id` is its cachedAt in ms: ' +
        'reconnecting with `Last-Event-ID` replays every later event within retention, in id order, then continues live, without ' +
        'gap or duplicate (the news and sentiment events of one refresh share their id). The server sends `retry: 2000` and a ' +
        '`: keep-alive` comment every 15 s. A client whose unsent data passes 1 MiB is disconnected (it may reconnect and resume). ' +
        'On shutdown every stream ends cleanly; clients reconnect, to another replica.',
      tags: ['market'],
      parameters: [
        {
          name: 'topics',
          in: 'query',
          required: false,
          description: 'Comma-separated kinds to receive: trending, trending-cas, news, sentiment. Default: all.',
          schema: { type: 'string', pattern: '^(trending|trending-cas|news|sentiment)(,(trending|trending-cas|news|sentiment))*$' },
        },
        {
          name: 'Last-Event-ID',
          in: 'header',
          required: false,
          description: 'The id of the last event received: resume after it.',
          schema: { type: 'string', pattern: '^\\d+$' },
        },
      ],
      responses: {
        '200': {
          description: 'The event stream; it does not end until the client leaves or the server shuts down.',
          headers: { 'Access-Control-Allow-Origin': { description: 'Always `*`.', schema: { type: 'string', const: '*' } } },
          content: { 'text/event-stream': { schema: { type: 'string' }, examples: { trending: { summary: 'A trending event', value: EVENT_EXAMPLE } } } },
        },
        '400': errorResponse('Bad request', [['Invalid query parameter: topics', '`topics` names an unknown kind, or is empty']]),
        '500': INTERNAL_ERROR,
        '503': errorResponse(
          'Unavailable',
          [
            ['Too many stream clients', 'the process already holds STREAM_MAX_CLIENTS streams'],
            ['Service unavailable', 'the process is shutting down'],
          ],
          { 'Retry-After': RETRY_AFTER },
        ),
      },
    },
  },
} satisfies Record<string, PathItemObject>);

Object.assign(openApiDocument.components.schemas, {
  SentimentPoint: object('Sentiment of a token at one refresh, or summed over one bucket.', {
    at: timestamp('The refresh time (30m) or the bucket start.'),
    score: num('Mention-weighted mean score, in [-1, 1].', { minimum: -1, maximum: 1 }),
    label: str('bullish when score >= 0.15, bearish when score <= -0.15, else neutral.', { enum: ['bullish', 'bearish', 'neutral'] }),
    mentions: int('Posts analysed, summed over the bucket.', { minimum: 0 }),
    positive: int('Positive posts, summed.', { minimum: 0 }),
    neutral: int('Neutral posts, summed.', { minimum: 0 }),
    negative: int('Negative posts, summed.', { minimum: 0 }),
  }),
  SentimentHistory: object('A token’s sentiment over time.', {
    token: str('The ticker as the index spells it (upper case).'),
    interval: str('The interval asked for.', { enum: ['30m', '1h', '4h', '1d'] }),
    points: { type: 'array', description: 'Oldest first; at most 1,000.', items: ref('SentimentPoint') },
    cachedAt: timestamp('The latest refresh of sentiment.'),
  }),
  TrendingPoint: object('A token’s trending figures at one refresh, or over one bucket; null where it was out of the list.', {
    at: timestamp('The refresh time (30m) or the bucket start.'),
    rank: nullable('Position in the trending list (1 = first); the best in the bucket.', 'integer'),
    mentions: nullable('Mentions, summed over the refreshes where it was listed.', 'number'),
    smartMoneyMentions: nullable('Smart money mentions, summed likewise.', 'number'),
    priceChange24h: nullable('24-hour price change (%), the last of the bucket.', 'number'),
  }),
  TokenHistory: object('A token’s trending figures over time.', {
    token: str('The ticker, upper case.'),
    interval: str('The interval asked for.', { enum: ['30m', '1h', '4h', '1d'] }),
    points: { type: 'array', description: 'Oldest first, one per refresh or bucket; at most 1,000.', items: ref('TrendingPoint') },
    cachedAt: timestamp('The latest refresh of trending.'),
  }),
  NewsEvent: object('`data` of a `news` event.', {
    data: { type: 'array', description: 'Posts new since the previous refresh (empty after the first refresh of an empty Redis).', items: ref('NewsItem') },
    cachedAt: timestamp('The refresh time (the event id, in ms).'),
  }),
  SentimentEvent: object('`data` of a `sentiment` event.', {
    data: { type: 'array', description: 'Records that changed since the previous refresh, tokens newly mentioned included.', items: ref('SentimentRecord') },
    cachedAt: timestamp('The refresh time (the event id, in ms).'),
  }),
} satisfies Record<string, SchemaObject>);
