/** Request and response shapes of the alert routes and MCP tools; the OpenAPI document is generated from them (routes/alerts/alerts-openapi.ts). */
import { z } from 'zod';
import { AlertConditionSchema, WebhookChannelSchema } from '../../../../shared/alerts/alert-types.js';
import { BadRequestError } from '../../../../shared/errors.js';
import type { RuleInput } from './alerts-service.js';

/** Bodies over 16 KiB are refused with 413 before they are parsed. */
export const ALERT_BODY_LIMIT = '16kb';

const name = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .meta({ description: 'A name for the rule (1-100 characters).', examples: ['SOL turns bearish'] });
const channels = z.array(WebhookChannelSchema).min(1).max(5).meta({ description: 'Where events go: 1 to 5 webhooks.' });
const cooldownSeconds = z
  .int()
  .min(0)
  .max(30 * 86_400)
  .meta({ format: 'int64', description: 'After firing, the rule does not fire again for this many seconds (0 to 30 days).' });
const enabled = z.boolean().meta({ description: 'A disabled rule is not evaluated.' });

export const CreateAlertRequestSchema = z
  .object({
    name,
    condition: AlertConditionSchema,
    channels,
    cooldownSeconds: cooldownSeconds.default(0),
    enabled: enabled.default(true),
  })
  .meta({
    id: 'CreateAlertRequest',
    description: 'Body of POST /api/alerts. Fields not listed are ignored.',
    examples: [
      {
        name: 'SOL turns bearish',
        condition: { type: 'sentiment-label', token: 'SOL', to: 'bearish' },
        channels: [{ type: 'webhook', url: 'https://bot.example.com/hooks/market-signals' }],
        cooldownSeconds: 3600,
      },
    ],
  });

export const UpdateAlertRequestSchema = z
  .object({
    name: name.optional(),
    condition: AlertConditionSchema.optional(),
    channels: channels.optional(),
    cooldownSeconds: cooldownSeconds.optional(),
    enabled: enabled.optional().meta({ description: 'true enables the rule again (also after the service disabled it).' }),
  })
  .meta({ id: 'UpdateAlertRequest', description: 'Body of PATCH /api/alerts/{id}: the fields to change. Fields not listed are ignored.' });

export const AlertRuleSchema = z
  .object({
    id: z
      .string()
      .regex(/^alr_[A-Za-z0-9_-]{16}$/)
      .meta({ description: 'The rule’s id.' }),
    name: z.string(),
    condition: AlertConditionSchema,
    channels: z.array(WebhookChannelSchema),
    cooldownSeconds: z.int().min(0),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().meta({
      description: 'Why the service disabled the rule (its deliveries kept failing); null otherwise. PATCH enabled=true clears it.',
    }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    secretRotation: z
      .object({ previousExpiresAt: z.iso.datetime().meta({ description: 'Until then the previous secret signs too.' }) })
      .nullable()
      .meta({ description: 'Set after a rotation while the previous secret still signs.' }),
  })
  .meta({ id: 'AlertRule', description: 'An alert rule (never its secret).' });

export const CreatedAlertSchema = AlertRuleSchema.extend({
  secret: z
    .string()
    .regex(/^whsec_/)
    .meta({ description: 'The signing secret (`whsec_…`, Standard Webhooks). Shown only now: store it.' }),
}).meta({ id: 'CreatedAlert', description: 'The new rule and its signing secret, shown once.' });

export const AlertListSchema = z
  .object({ data: z.array(AlertRuleSchema).meta({ description: 'The caller’s rules, oldest first.' }) })
  .meta({ id: 'AlertList', description: 'The caller’s alert rules.' });

export const DeliveryAttemptSchema = z
  .object({
    eventId: z.string().meta({ description: 'The event’s `webhook-id`.' }),
    type: z.enum(['alert.fired', 'alert.test']),
    url: z.string(),
    attempt: z.int().min(1),
    at: z.iso.datetime(),
    outcome: z.enum(['delivered', 'retrying', 'failed', 'dropped']).meta({
      description:
        '`retrying`: another attempt will follow; `failed`: given up; `dropped`: not sent, because the rule no longer has this URL (or the queue was over its cap).',
    }),
    status: z.int().nullable().meta({ description: 'The receiver’s HTTP status; null when none came.' }),
    latencyMs: z.number().min(0),
    error: z.string().nullable(),
  })
  .meta({ id: 'DeliveryAttempt', description: 'One attempt to deliver an event.' });

export const DeliveryListSchema = z
  .object({ data: z.array(DeliveryAttemptSchema).meta({ description: 'The last 50 attempts, newest first.' }) })
  .meta({ id: 'DeliveryList', description: 'A rule’s recent delivery attempts.' });

export const TestQueuedSchema = z
  .object({ eventId: z.string().meta({ description: 'The test event’s `webhook-id`.' }) })
  .meta({ id: 'TestQueued', description: 'The test event was queued for every channel.' });

export const AlertIdParamsSchema = z.object({ id: z.string().max(64).meta({ description: 'The rule’s id (`alr_…`).' }) });

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestError('Invalid body: expected a JSON object');
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join('.') || 'body';
  throw new BadRequestError(`Invalid field: ${path}`);
}

export const parseCreateAlert = (body: unknown): RuleInput => parse(CreateAlertRequestSchema, body);

export function parseUpdateAlert(body: unknown): Partial<RuleInput> {
  const patch = parse(UpdateAlertRequestSchema, body);
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
}

export const AlertFeedHeaderSchema = z.object({
  'Last-Event-ID': z
    .string()
    .max(27)
    .regex(/^\d{1,16}-\d{1,10}$/)
    .optional()
    .meta({ description: 'The id of the last event received: the stream resumes after it (within the last 1,000 firings).' }),
});

/** A Last-Event-ID is a Redis stream id (`<ms>-<seq>`); anything else is 400. */
export function parseFeedLastEventId(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,16}-\d{1,10}$/.test(raw)) throw new BadRequestError('Invalid Last-Event-ID');
  return raw;
}
