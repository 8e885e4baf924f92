/**
 * The alert tools: a bot's own alert rules and firings over MCP, acting for the user of the
 * request's API key (or JWT), as the /api/alerts routes do. Each calls the routes' service with
 * the routes' parser, so a tool sees the same rules, the same 400 messages ("Invalid field:
 * condition.token") and the same 404 for another user's rule.
 */
import { z } from 'zod';
import { AlertEventSchema } from '../../../../shared/alerts/alert-types.js';
import { Representation } from '../http/representation.js';
import {
  AlertListSchema,
  AlertRuleSchema,
  CreateAlertRequestSchema,
  CreatedAlertSchema,
  parseCreateAlert,
} from '../alerts/alert-schemas.js';
import { asOutput, UNTRUSTED_TEXT, type McpTool } from './tools.js';

/** The most firings one call answers (the stream keeps the last 1,000). */
const FIRINGS_MAX = 100;

const WITH_KEY = 'Needs an API key (X-Api-Key, or the stdio entry’s key): acts for its user, who sees only their own alerts.';

const ruleId = z.object({
  id: AlertRuleSchema.shape.id.meta({ description: 'The rule’s id (`alr_…`), as create_alert or list_alerts answers it.' }),
});

const createAlert: McpTool<typeof CreateAlertRequestSchema> = {
  name: 'create_alert',
  title: 'Create an alert',
  description:
    'Creates an alert rule (POST /api/alerts): one condition (sentiment crossing or changing label, a mentions spike, a rank, a new contract ' +
    'address, a post of a tracked account) and the webhooks its events are POSTed to, signed as Standard Webhooks specifies. ' +
    `The answer holds the signing secret (whsec_…), shown this once. ${WITH_KEY} ${UNTRUSTED_TEXT}`,
  input: z.object(CreateAlertRequestSchema.shape),
  output: asOutput(CreatedAlertSchema),
  effect: 'create',
  parse: parseCreateAlert,
  answer: async (deps, input, caller) => {
    const { rule, secret } = await deps.alerts.create(await caller.userId(), input);
    return Representation.json({ ...rule, secret });
  },
};

const listAlerts: McpTool = {
  name: 'list_alerts',
  title: 'My alerts',
  description: `The caller’s alert rules, oldest first (GET /api/alerts), never their secrets. ${WITH_KEY} ${UNTRUSTED_TEXT}`,
  input: z.object({}),
  output: asOutput(AlertListSchema),
  answer: async (deps, _input, caller) => Representation.json({ data: await deps.alerts.list(await caller.userId()) }),
};

const deleteAlert: McpTool<typeof ruleId> = {
  name: 'delete_alert',
  title: 'Delete an alert',
  description: `Deletes one of the caller’s alert rules (DELETE /api/alerts/{id}); another user’s rule is not found (404). ${WITH_KEY} ${UNTRUSTED_TEXT}`,
  input: ruleId,
  output: z.object({ deleted: z.string().meta({ description: 'The id of the rule deleted.' }) }),
  effect: 'delete',
  answer: async (deps, { id }, caller) => {
    await deps.alerts.delete(await caller.userId(), id);
    return Representation.json({ deleted: id });
  },
};

const firingsInput = z.object({
  limit: z
    .int()
    .min(1)
    .max(FIRINGS_MAX)
    .optional()
    .meta({ description: `How many, newest first: 1 to ${FIRINGS_MAX}. Default 20.` }),
});

const alertFirings: McpTool<typeof firingsInput> = {
  name: 'alert_firings',
  title: 'My recent alert firings',
  description:
    'The caller’s latest alert firings, newest first: the events the webhooks receive and GET /api/alerts/stream sends, each with its ' +
    `stream id (the stream's Last-Event-ID). ${WITH_KEY} ${UNTRUSTED_TEXT}`,
  input: firingsInput,
  output: z.object({
    data: z.array(z.object({ id: z.string().meta({ description: 'The firing’s id in the stream.' }), event: AlertEventSchema })),
  }),
  answer: async (deps, { limit }, caller) =>
    Representation.json({ data: await deps.alerts.recentFirings(await caller.userId(), limit ?? 20) }),
};

export const ALERT_TOOLS: readonly McpTool[] = [createAlert, listAlerts, deleteAlert, alertFirings] as readonly McpTool[];
