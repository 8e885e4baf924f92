/**
 * Shapes the auth domain returns, as zod schemas: the auth routes re-export them and the OpenAPI
 * document is generated from them, so the domain never imports a route module.
 */
import { z } from 'zod';

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

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
