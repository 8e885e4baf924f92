/**
 * The alert routes' part of the OpenAPI document, and its `webhooks` section (the event POSTed
 * to a receiver).
 */
import { z } from 'zod';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { AlertEventSchema } from '../../../../../shared/alerts/alert-types.js';
import { declarePaths } from '../../openapi/declare.js';
import { RETRY_AFTER, X_ACCEL_BUFFERING } from '../../openapi/headers.js';
import {
  errorResponse,
  INTERNAL_ERROR,
  json,
  REDIS_DOWN,
  SERVICE_UNAVAILABLE,
  UNAUTHORIZED,
  type ErrorCase,
} from '../../openapi/responses.js';
import {
  AlertFeedHeaderSchema,
  AlertIdParamsSchema,
  AlertListSchema,
  AlertRuleSchema,
  CreateAlertRequestSchema,
  CreatedAlertSchema,
  DeliveryListSchema,
  TestQueuedSchema,
  UpdateAlertRequestSchema,
} from '../../alerts/alert-schemas.js';

const FIELD_ERROR: ErrorCase = [
  'Invalid field: <path>',
  'a field is missing, of the wrong type or out of range (the first such field is named, such as `condition.threshold`)',
];
const URL_REFUSED: ErrorCase = [
  'Invalid field: channels.<n>.url <reason>',
  'a webhook URL is not https (in production), carries credentials, does not resolve, or is or resolves to a loopback, private, link-local (169.254.169.254 included), CGNAT, unique-local, multicast, unspecified, reserved, IPv4-mapped, IPv4-compatible, NAT64, 6to4 or Teredo address; the reason names the kind of address, never the address',
];
const NOT_OBJECT: ErrorCase = ['Invalid body: expected a JSON object', 'the body is not a JSON object'];
const INVALID_JSON: ErrorCase = ['Invalid JSON body', 'the body is malformed JSON'];

/** A test budget's window is a minute (per rule) or an hour (per user). */
const BUDGET_RETRY_AFTER = {
  description: 'Seconds until the spent test budget is whole again (1 to 3600).',
  schema: { type: 'integer' as const, format: 'int32', minimum: 1, maximum: 3600 },
};

const notFound = errorResponse('Not found', [['Alert not found', 'no rule of the caller has this id (another user’s rule included)']]);
const common = { '401': UNAUTHORIZED, '500': INTERNAL_ERROR, '503': SERVICE_UNAVAILABLE };
const withBody = {
  '400': errorResponse('Bad request', [FIELD_ERROR, URL_REFUSED, NOT_OBJECT, INVALID_JSON]),
  '413': errorResponse('Payload too large', [['Payload too large', 'the body is over 16 KiB']]),
  '415': errorResponse('Unsupported media type', [['Unsupported media type', 'the Content-Type is not JSON']]),
};
const op = (operation: Omit<ZodOpenApiOperationObject, 'tags' | 'security'>): ZodOpenApiOperationObject => ({
  ...operation,
  tags: ['alerts'],
  security: [{ bearerAuth: [] }],
});
const byId = { requestParams: { path: AlertIdParamsSchema } };
/** The rule's revision as an ETag (every write bumps it): PATCH with `If-Match` applies only over it. */
const RULE_ETAG = {
  description: 'The rule’s version (`"r<revision>"`); send it in `If-Match` on PATCH to change only this version.',
  schema: { type: 'string' as const, pattern: '^"r\\d+"$', maxLength: 24 },
};
const IfMatchSchema = z.object({
  'if-match': z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'An ETag of GET or an earlier PATCH (or `*`): the change applies only over that version of the rule, else 412.' }),
});
const stale = errorResponse('Precondition failed', [
  ['The alert has changed since it was read (If-Match)', 'If-Match names a version that is no longer the rule’s'],
]);

export const ALERT_PATHS = declarePaths({
  '/api/alerts': {
    post: op({
      operationId: 'createAlert',
      summary: 'Create an alert rule; its signing secret is shown once',
      description:
        'A rule has one condition and 1-5 webhooks. Each webhook URL is checked now (and again at every delivery): `https` in production, and every address its host resolves to must be public. A user holds at most ALERTS_MAX_PER_USER rules (default 100). ' +
        'A rule fires on the edge: when its condition becomes true between two refreshes, not at every refresh while it stays true; then not again within `cooldownSeconds`.',
      requestBody: { required: true, content: json(CreateAlertRequestSchema) },
      responses: {
        '201': {
          description: 'The rule, with its `whsec_` secret (shown only here and on rotation).',
          headers: { Location: { description: 'The rule’s URL.', schema: { type: 'string', maxLength: 64 } } },
          content: json(CreatedAlertSchema),
        },
        ...withBody,
        '400': errorResponse('Bad request', [
          FIELD_ERROR,
          URL_REFUSED,
          NOT_OBJECT,
          INVALID_JSON,
          ['Too many alerts: at most <n> per user', 'the caller holds ALERTS_MAX_PER_USER rules already'],
        ]),
        ...common,
      },
    }),
    get: op({
      operationId: 'listAlerts',
      summary: 'The caller’s alert rules',
      responses: { '200': { description: 'Every rule of the caller, oldest first.', content: json(AlertListSchema) }, ...common },
    }),
  },
  '/api/alerts/stream': {
    get: op({
      operationId: 'alertStream',
      summary: 'The caller’s own firings, live, as server-sent events',
      description:
        'A `text/event-stream`: one `event: alert` per firing of the caller’s rules, its `data:` the AlertEvent delivered to webhooks, its `id` a stream id. ' +
        'Reconnecting with `Last-Event-ID` replays the later firings (within the last 1,000) before going live. `retry: 2000`, and a `: keep-alive` comment every 15 s. At most 5 per user.',
      requestParams: { header: AlertFeedHeaderSchema },
      responses: {
        '200': {
          description: 'The event stream; it does not end until the client leaves or the server shuts down.',
          headers: { 'X-Accel-Buffering': X_ACCEL_BUFFERING },
          content: { 'text/event-stream': { schema: z.string() } },
        },
        '400': errorResponse('Bad request', [['Invalid Last-Event-ID', 'Last-Event-ID is not a stream id (`<ms>-<seq>`)']]),
        '401': UNAUTHORIZED,
        '500': INTERNAL_ERROR,
        '503': errorResponse('Temporarily unavailable', [
          ['Too many stream clients', 'the process holds STREAM_MAX_CLIENTS streams'],
          ['Too many alert streams for this user', 'the caller holds 5 alert streams on this process'],
          ['Service unavailable', 'the server is shutting down, or Redis is unreachable'],
        ]),
      },
    }),
  },
  '/api/alerts/{id}': {
    get: op({
      operationId: 'getAlert',
      summary: 'One of the caller’s rules',
      ...byId,
      responses: {
        '200': { description: 'The rule.', headers: { ETag: RULE_ETAG }, content: json(AlertRuleSchema) },
        '404': notFound,
        ...common,
      },
    }),
    patch: op({
      operationId: 'updateAlert',
      summary: 'Change a rule (enabled=true also clears why the service disabled it)',
      requestParams: { path: AlertIdParamsSchema, header: IfMatchSchema },
      requestBody: { required: true, content: json(UpdateAlertRequestSchema) },
      responses: {
        '200': { description: 'The changed rule.', headers: { ETag: RULE_ETAG }, content: json(AlertRuleSchema) },
        ...withBody,
        '404': notFound,
        '412': stale,
        ...common,
      },
    }),
    delete: op({
      operationId: 'deleteAlert',
      summary: 'Delete a rule (events already queued are dropped)',
      ...byId,
      responses: { '204': { description: 'Deleted.' }, '404': notFound, ...common },
    }),
  },
  '/api/alerts/{id}/secret': {
    post: op({
      operationId: 'rotateAlertSecret',
      summary: 'Rotate the signing secret',
      description:
        'A new `whsec_` secret, shown once. The previous one keeps signing for ALERTS_SECRET_GRACE_SECONDS (default 24 h): meanwhile each delivery carries both signatures in `webhook-signature`, so a receiver with either secret verifies it.',
      ...byId,
      responses: {
        '200': { description: 'The rule and its new secret.', content: json(CreatedAlertSchema) },
        '404': notFound,
        ...common,
      },
    }),
  },
  '/api/alerts/{id}/test': {
    post: op({
      operationId: 'testAlert',
      summary: 'Send an `alert.test` event to every channel of the rule',
      ...byId,
      responses: {
        '202': { description: 'Queued; GET …/deliveries shows how it went.', content: json(TestQueuedSchema) },
        '404': notFound,
        '409': errorResponse('Conflict', [['Alert rule is disabled: enable it to send a test', 'the rule is disabled']]),
        '429': errorResponse(
          'Throttled',
          [['Test budget spent: <n> per rule per minute, <m> per user per hour', 'the rule or the user has spent its test budget']],
          { 'Retry-After': BUDGET_RETRY_AFTER },
        ),
        ...common,
        '503': errorResponse(
          'Temporarily unavailable',
          [REDIS_DOWN, ['Alert delivery queue is full: try the test again later', 'deliveries waiting or delayed are at ALERTS_QUEUE_MAX']],
          { 'Retry-After': RETRY_AFTER },
        ),
      },
    }),
  },
  '/api/alerts/{id}/deliveries': {
    get: op({
      operationId: 'alertDeliveries',
      summary: 'The rule’s last delivery attempts (time, status, latency, error)',
      ...byId,
      responses: {
        '200': { description: 'The last 50 attempts, newest first.', content: json(DeliveryListSchema) },
        '404': notFound,
        ...common,
      },
    }),
  },
});

/** The OpenAPI 3.1 `webhooks` section: what a receiver gets. */
export const ALERT_WEBHOOKS = {
  alertFired: {
    post: {
      operationId: 'alertWebhook',
      // The receiver authenticates the call by its signature, not by a scheme of this document.
      security: [],
      summary: 'An alert event, POSTed to each webhook of a rule',
      description:
        'Signed as Standard Webhooks specifies: `webhook-id` (the same on every retry of one event), `webhook-timestamp` (Unix seconds) and `webhook-signature` ' +
        '(`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` with the rule’s secret, base64-decoded after `whsec_`; two space-separated signatures while a rotated secret still signs). ' +
        'Answer 2xx to acknowledge. Network errors, timeouts, 5xx, 408 and 429 (Retry-After honoured) are retried with exponential backoff and jitter for about a day; another 4xx is not retried. ' +
        'A rule whose events fail ALERTS_DISABLE_AFTER_FAILED_EVENTS times in a row (default 10), or one event for a whole day, is disabled with the reason.',
      tags: ['alerts'],
      requestParams: {
        header: z.object({
          'webhook-id': z.string().meta({ description: 'The event’s id (`msg_…`).' }),
          'webhook-timestamp': z.string().meta({ description: 'Unix seconds of this attempt.' }),
          'webhook-signature': z.string().meta({ description: 'One or two `v1,<base64>` signatures, space-separated.' }),
        }),
      },
      requestBody: { required: true, content: { 'application/json': { schema: AlertEventSchema } } },
      responses: {
        '200': { description: 'Any 2xx acknowledges the event.' },
        '410': { description: 'Gone: not retried (nor is any 4xx but 408 and 429).' },
      },
    },
  },
} satisfies Record<string, { post: ZodOpenApiOperationObject }>;
