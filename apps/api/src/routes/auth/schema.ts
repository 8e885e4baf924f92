/** Request and response shapes of the auth routes (docs/interface.md, docs/decisions.md#d4); the document is generated from them. */
import { z } from 'zod';
import { BadRequestError } from '../../../../../shared/errors.js';
import { ROLES } from '../../auth/users.js';

/** docs/decisions.md#d4: bodies over 16 KiB are refused with 413 before they are parsed. */
export const LOGIN_BODY_LIMIT = '16kb';

/** Extra fields are ignored. `email` must have something besides white space. */
export const LoginRequestSchema = z
  .object({
    email: z
      .string()
      .min(1)
      .refine((email) => email.trim() !== '')
      .meta({ description: 'User email address.', format: 'email' }),
    password: z.string().min(1).meta({ description: 'User password.' }),
  })
  .meta({ id: 'LoginRequest', description: 'Body of POST /api/auth/login.' });
export type LoginBody = z.infer<typeof LoginRequestSchema>;

export const LoginResponseSchema = z
  .object({
    token: z.string().meta({ description: 'Signed JWT (HS256), sent later as `Authorization: Bearer <token>`.' }),
    expiresIn: z.literal(86400).meta({ description: 'Token lifetime in seconds; the value is 86400 (24 hours).' }),
  })
  .meta({ id: 'LoginResponse', description: 'Response of POST /api/auth/login.' });
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const UserSchema = z
  .object({
    id: z.uuid().meta({ description: 'User id (the token subject).' }),
    email: z.email().meta({ description: 'Normalised email (trimmed, lower case).' }),
    role: z.enum(ROLES).meta({ description: 'Role of the user.' }),
    createdAt: z.iso.datetime().meta({ description: 'When the user was created.' }),
  })
  .meta({ id: 'User', description: 'The authenticated user.' });
export type PublicUser = z.infer<typeof UserSchema>;

export const RefreshAcknowledgementSchema = z
  .object({ status: z.literal('refresh requested').meta({ description: 'Always "refresh requested".' }) })
  .meta({ description: 'Acknowledgement.' });
export type RefreshAcknowledgement = z.infer<typeof RefreshAcknowledgementSchema>;

/** The body must be a JSON object with non-empty string `email` and `password`; else 400 `Missing fields`. */
export function parseLoginBody(body: unknown): LoginBody {
  const parsed = LoginRequestSchema.safeParse(body);
  if (!parsed.success) throw new BadRequestError('Missing fields');
  return parsed.data;
}
