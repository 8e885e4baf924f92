/** Request and response shapes of the auth routes (docs/interface.md, docs/decisions.md#d4); the document is generated from them. */
import { z } from 'zod';
import { BadRequestError } from '../../../../../shared/errors.js';
import { UserSchema } from '../../auth/types.js';

/** docs/decisions.md#d4: bodies over 16 KiB are refused with 413 before they are parsed. */
export const LOGIN_BODY_LIMIT = '16kb';
/** No field can be longer than the body that carries it; stated so the document bounds each one. */
const LOGIN_FIELD_MAX = 16 * 1024;

/** Extra fields are ignored. `email` must have something besides white space. */
export const LoginRequestSchema = z
  .object({
    email: z
      .string()
      .min(1)
      .max(LOGIN_FIELD_MAX)
      .refine((email) => email.trim() !== '')
      .meta({ description: 'User email address.', format: 'email' }),
    password: z.string().min(1).max(LOGIN_FIELD_MAX).meta({ description: 'User password.' }),
  })
  .meta({ id: 'LoginRequest', description: 'Body of POST /api/auth/login.' });
export type LoginBody = z.infer<typeof LoginRequestSchema>;

/** Login response and user live with the auth domain, which returns them. */
export { LoginResponseSchema, UserSchema, type LoginResponse, type PublicUser } from '../../auth/types.js';

/** An API key as responses show it: never the key, never its hash. */
export const ApiKeyCredentialSchema = z
  .object({
    type: z.literal('api-key').meta({ description: 'The credential was an API key.' }),
    id: z
      .string()
      .regex(/^key_[0-9A-Za-z]{12}$/)
      .meta({ description: 'Public id of the key (what `users key revoke` takes).' }),
    name: z.string().max(64).meta({ description: 'The label given at creation; empty when none was.' }),
    last4: z.string().length(4).meta({ description: 'The last four characters of the key.' }),
    createdAt: z.iso.datetime().meta({ description: 'When the key was created.' }),
    lastUsedAt: z.iso.datetime().nullable().meta({ description: 'Last use, to within a minute; null before the first.' }),
  })
  .meta({ id: 'ApiKeyCredential', description: 'The API key a request was authenticated with.' });

export const MeResponseSchema = UserSchema.extend({
  credential: ApiKeyCredentialSchema.optional().meta({
    description: 'Present when the request was authenticated with an API key (absent for a JWT).',
  }),
}).meta({ id: 'Me', description: 'The authenticated user, and the API key when one was used.' });
export type MeResponse = z.infer<typeof MeResponseSchema>;

export const UsageSchema = z
  .object({
    client: z
      .discriminatedUnion('type', [
        z.object({ type: z.literal('address').meta({ description: 'No API key: the budget of the client address.' }) }),
        ApiKeyCredentialSchema.pick({ type: true, id: true, name: true, last4: true }),
      ])
      .meta({ description: 'Whose budget this is: the API key the request carried, else the client address.' }),
    statsMisses: z
      .object({
        limit: z
          .int()
          .min(1)
          .meta({ description: 'Misses allowed per window (STATS_MISS_BUDGET, or API_KEY_STATS_MISS_BUDGET for a key).' }),
        used: z.int().min(0).meta({ description: 'Misses spent in the current window.' }),
        remaining: z.int().min(0).meta({ description: 'Misses left in the current window.' }),
        windowSeconds: z.int().min(1).meta({ description: 'Length of a window in seconds.' }),
        resetSeconds: z.int().min(0).meta({ description: 'Seconds until the budget is whole again.' }),
      })
      .meta({ description: 'The budget of stats misses (lookups that ask the upstream index).' }),
  })
  .meta({ id: 'Usage', description: 'Response of GET /api/auth/usage: the caller’s budget and use; never a secret.' });
export type Usage = z.infer<typeof UsageSchema>;

export const RefreshAcknowledgementSchema = z
  .object({
    status: z.literal('refresh requested').meta({ description: 'Always "refresh requested".' }),
    requested: z.array(z.string()).meta({ description: 'The refresh jobs this ask started a run of.' }),
    coalesced: z
      .array(z.string())
      .meta({ description: 'The refresh jobs a run was asked for less than 10 s ago: this ask joined that run, no other was started.' }),
  })
  .meta({ description: 'Acknowledgement.' });
export type RefreshAcknowledgement = z.infer<typeof RefreshAcknowledgementSchema>;

/** The body must be a JSON object with non-empty string `email` and `password`; else 400 `Missing fields`. */
export function parseLoginBody(body: unknown): LoginBody {
  const parsed = LoginRequestSchema.safeParse(body);
  if (!parsed.success) throw new BadRequestError('Missing fields');
  return parsed.data;
}
