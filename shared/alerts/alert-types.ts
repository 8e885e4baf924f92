/**
 * What an alert rule is (README, Alerts), as zod schemas: the API validates and documents bodies
 * with them; the worker evaluates the conditions and delivers events whose payload is AlertEvent.
 */
import { z } from 'zod';
import { normalizeTicker, normalizeUsername, TICKER, USERNAME } from '../identifiers.js';

/** A ticker as the index spells it: `$sol` and `SOL` are one token (stored upper-case, no `$`). */
const Ticker = z
  .string()
  .max(21)
  .regex(TICKER)
  .meta({ description: 'Token ticker; an optional leading $ is dropped; 1-20 of [A-Za-z0-9], case-insensitive.', examples: ['SOL'] });
const Account = z
  .string()
  .max(16)
  .regex(USERNAME)
  .meta({ description: 'A tracked account’s username; an optional leading @ is dropped; case-insensitive.', examples: ['cobie'] });
const Chain = z
  .string()
  .max(32)
  .regex(/^[A-Za-z0-9-]{1,32}$/)
  .meta({ description: 'Chain identifier as trending contract addresses name it (ethereum, solana...), case-insensitive.' });

/** An integer setting with its default (documented as int64). */
const wholeNumber = (min: number, max: number, fallback: number, description: string) =>
  z.int().min(min).max(max).default(fallback).meta({ format: 'int64', description });

export const SentimentThresholdCondition = z
  .strictObject({
    type: z.literal('sentiment-threshold'),
    token: Ticker,
    threshold: z.number().min(-1).max(1).meta({ description: 'The score to cross, in [-1, 1].' }),
    direction: z
      .enum(['up', 'down'])
      .meta({ description: '`up`: fires when the score rises to or above it; `down`: falls to or below it.' }),
  })
  .meta({
    id: 'SentimentThresholdCondition',
    description: 'A token’s sentiment score crosses a threshold.',
    examples: [{ type: 'sentiment-threshold', token: 'SOL', threshold: -0.2, direction: 'down' }],
  });

export const SentimentLabelCondition = z
  .strictObject({
    type: z.literal('sentiment-label'),
    token: Ticker,
    to: z.enum(['bullish', 'bearish', 'neutral', 'any']).meta({ description: 'The label it changes to; `any` for every change.' }),
  })
  .meta({
    id: 'SentimentLabelCondition',
    description: 'A token’s sentiment label changes.',
    examples: [{ type: 'sentiment-label', token: 'SOL', to: 'bearish' }],
  });

export const MentionsSpikeCondition = z
  .strictObject({
    type: z.literal('mentions-spike'),
    token: Ticker.optional().meta({ description: 'The token; absent: any trending token.' }),
    metric: z.enum(['mentions', 'smartMoneyMentions']).default('mentions').meta({ description: 'Which count. Default `mentions`.' }),
    percent: z.int().min(1).max(100_000).meta({ format: 'int64', description: 'How far above the mean of the previous refreshes, in %.' }),
    window: wholeNumber(1, 20, 6, 'How many previous refreshes the mean covers. Default 6.'),
    minCount: wholeNumber(1, 1_000_000_000, 10, 'The count must be at least this (a jump from 1 to 3 does not fire). Default 10.'),
  })
  .meta({
    id: 'MentionsSpikeCondition',
    description:
      'Mentions (or smart-money mentions) of a trending token rise at least `percent` % above their mean over the previous `window` refreshes.',
    examples: [{ type: 'mentions-spike', token: 'SOL', metric: 'smartMoneyMentions', percent: 50, window: 6, minCount: 20 }],
  });

export const RankCondition = z
  .strictObject({
    type: z.literal('rank'),
    token: Ticker.optional().meta({ description: 'The token; absent: any token.' }),
    top: z.int().min(1).max(100).meta({ format: 'int64', description: 'Fires when the token enters the top `top` trending tokens.' }),
  })
  .meta({ id: 'RankCondition', description: 'A token enters the top N trending.', examples: [{ type: 'rank', token: 'SOL', top: 5 }] });

export const NewContractCondition = z
  .strictObject({
    type: z.literal('new-contract'),
    chain: Chain.optional().meta({ description: 'Only this chain; absent: any chain.' }),
    minSmartMoneyMentions: wholeNumber(0, 1_000_000_000, 0, 'At least this many smart-money mentions. Default 0.'),
  })
  .meta({
    id: 'NewContractCondition',
    description: 'A contract address appears in trending contract addresses (with the chain and floor given).',
    examples: [{ type: 'new-contract', chain: 'solana', minSmartMoneyMentions: 3 }],
  });

export const PostCondition = z
  .strictObject({
    type: z.literal('post'),
    account: Account.optional().meta({ description: 'The tracked account; absent: any tracked account.' }),
    token: Ticker.optional().meta({ description: 'The token the post must mention; absent: any token.' }),
    minFollowers: wholeNumber(0, 10_000_000_000, 0, 'The author’s follower floor. Default 0.'),
    minEngagement: z.number().min(0).max(1e12).default(0).meta({ description: 'The post’s engagement score floor. Default 0.' }),
  })
  .meta({
    id: 'PostCondition',
    description: 'A tracked account posts about a token (a post new since the previous refresh).',
    examples: [{ type: 'post', account: 'cobie', token: 'SOL', minFollowers: 10_000, minEngagement: 0 }],
  });

export const StoryCondition = z
  .strictObject({
    type: z.literal('story'),
    token: Ticker.optional().meta({ description: 'Only a story about this token (among its `tokens`); absent: any story.' }),
    minAuthors: wholeNumber(1, 1000, 3, 'The story must have at least this many distinct tracked authors. Default 3.'),
  })
  .meta({
    id: 'StoryCondition',
    description:
      'A new story (docs/decisions.md#d23) with at least `minAuthors` distinct tracked authors: fires once per story, at the first refresh that lists it with that many (not again while it continues).',
    examples: [{ type: 'story', token: 'SOL', minAuthors: 3 }],
  });

export const CallerCondition = z
  .strictObject({
    type: z.literal('caller'),
    minHitRate: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .meta({ description: 'The account’s hit rate over its last 30 days of calls, as of the call, at least this. Default 0.5.' }),
    minCalls: wholeNumber(1, 10_000, 3, 'The account made at least this many calls in those 30 days before this one. Default 3.'),
    chain: Chain.optional().meta({ description: 'Only calls of a contract address on this chain; absent: any call, token or address.' }),
    notTrending: z.boolean().default(false).meta({
      description:
        'Only a token not in the first CALLS_TOP_N of the 24 h trending list (an address not in trending contract addresses). Default false.',
    }),
  })
  .meta({
    id: 'CallerCondition',
    description:
      'An account with a good record as a caller (docs/decisions.md#callers) makes a new call: its first mention of a token or address after a quiet period. Its figures are as of the refresh before the call (the call itself not counted).',
    examples: [{ type: 'caller', minHitRate: 0.6, minCalls: 5, notTrending: true }],
  });

export const AlertConditionSchema = z
  .discriminatedUnion('type', [
    SentimentThresholdCondition,
    SentimentLabelCondition,
    MentionsSpikeCondition,
    RankCondition,
    NewContractCondition,
    PostCondition,
    StoryCondition,
    CallerCondition,
  ])
  .meta({ id: 'AlertCondition', description: 'What makes the rule fire: one condition, by `type`.' });
export type AlertCondition = z.output<typeof AlertConditionSchema>;
export type ConditionType = AlertCondition['type'];

export const WebhookChannelSchema = z
  .strictObject({
    type: z.literal('webhook'),
    url: z
      .string()
      .min(1)
      .max(2048)
      .meta({
        description:
          'Where events are POSTed, signed as Standard Webhooks specifies. `https:` in production; its host must resolve only to public addresses.',
        examples: ['https://bot.example.com/hooks/market-signals'],
      }),
  })
  .meta({ id: 'WebhookChannel', description: 'A webhook receiver.' });
export type WebhookChannel = z.output<typeof WebhookChannelSchema>;

/** A rule as stored (shared/keyspace.ts alertKeys.rule): secrets included, never shown but at creation and rotation. Checks a backup's rules (`users import`). */
export const StoredRuleSchema = z.object({
  id: z.string().regex(/^alr_[A-Za-z0-9_-]{16}$/),
  userId: z.string().min(1),
  name: z.string(),
  condition: AlertConditionSchema,
  channels: z.array(WebhookChannelSchema).min(1),
  cooldownSeconds: z.int().min(0),
  enabled: z.boolean(),
  /** Why the service disabled the rule (its deliveries kept failing); null when enabled or disabled by its user. */
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Bumped by every write; a write applies only over the revision it read (shared/lua/writeAlertRule.lua). Absent: 0. */
  revision: z.int().min(0).optional(),
  /** Signing secrets (`whsec_…`), newest first; one with `expiresAt` is a rotated one still signing until then. */
  secrets: z.array(z.object({ secret: z.string().startsWith('whsec_'), expiresAt: z.string().nullable() })).min(1),
});
export type StoredRule = z.output<typeof StoredRuleSchema>;

/** The subjects a condition is indexed under: evaluation of a refresh reads only the rules of the subjects it touches. */
export function indexSubject(condition: AlertCondition): string {
  switch (condition.type) {
    case 'sentiment-threshold':
    case 'sentiment-label':
      return condition.token;
    case 'mentions-spike':
    case 'rank':
    case 'post':
    case 'story':
      return condition.token ?? '*';
    case 'new-contract':
    case 'caller':
      return condition.chain ?? '*';
  }
}

/** Canonical spelling: tickers upper-case without `$`, accounts lower-case without `@`, chains lower-case. */
export function normalizeCondition(condition: AlertCondition): AlertCondition {
  switch (condition.type) {
    case 'sentiment-threshold':
    case 'sentiment-label':
      return { ...condition, token: normalizeTicker(condition.token) };
    case 'mentions-spike':
    case 'rank':
    case 'story':
      return condition.token === undefined ? condition : { ...condition, token: normalizeTicker(condition.token) };
    case 'new-contract':
    case 'caller':
      return condition.chain === undefined ? condition : { ...condition, chain: condition.chain.toLowerCase() };
    case 'post': {
      const account = condition.account === undefined ? undefined : normalizeUsername(condition.account);
      const token = condition.token === undefined ? undefined : normalizeTicker(condition.token);
      return { ...condition, ...(account === undefined ? {} : { account }), ...(token === undefined ? {} : { token }) };
    }
  }
}

/** The body of every delivered event (the OpenAPI document's `webhooks` section) and of the stream's events. */
export const AlertEventSchema = z
  .object({
    type: z.enum(['alert.fired', 'alert.test']).meta({ description: '`alert.fired`, or `alert.test` for POST /api/alerts/{id}/test.' }),
    timestamp: z.iso.datetime().meta({ description: 'When the rule fired.' }),
    data: z
      .object({
        firingId: z.string().meta({
          description: 'The firing’s id, the same in each of its parts; also the `webhook-id` of every attempt to deliver its first part.',
        }),
        ruleId: z.string().meta({ description: 'The rule that fired.' }),
        ruleName: z.string().meta({ description: 'Its name.' }),
        condition: AlertConditionSchema,
        refreshedAt: z.iso.datetime().meta({ description: 'The cachedAt of the refresh that made it fire.' }),
        part: z.int().min(1).meta({ description: 'Which part of the firing this event is (1 to `parts`).' }),
        parts: z.int().min(1).meta({
          description:
            'How many events the firing is sent in: a firing with more than 20 matches is split, 20 matches a part, every part with the same `firingId` (part 1’s `webhook-id` is the firing id, part n’s is the firing id and `_n`). A receiver has every match once it has every part.',
        }),
        matches: z
          .array(z.record(z.string(), z.union([z.string(), z.number(), z.null()])))
          .max(20)
          .meta({
            description:
              'What matched: tokens, addresses, posts, stories or calls with the values that made the condition true (at most 20 per event; the rest in the firing’s other parts). A story’s `tokens` are comma-separated.',
          }),
      })
      .meta({ description: 'The firing.' }),
  })
  .meta({ id: 'AlertEvent', description: 'An alert event, as POSTed to a webhook and sent on GET /api/alerts/stream.' });
export type AlertEvent = z.infer<typeof AlertEventSchema>;
export type AlertMatch = AlertEvent['data']['matches'][number];
