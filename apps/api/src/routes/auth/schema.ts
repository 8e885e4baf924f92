/** Request parsing for the auth routes (spec 2.1, D4). */
import { BadRequestError } from '../../../../../shared/errors.js';

/** D4: bodies over 16 KiB are refused with 413 before they are parsed. */
export const LOGIN_BODY_LIMIT = '16kb';

export interface LoginBody {
  email: string;
  password: string;
}

/** The body must be a JSON object with non-empty string `email` and `password`; else 400 `Missing fields`. */
export function parseLoginBody(body: unknown): LoginBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestError('Missing fields');
  const { email, password } = body as Record<string, unknown>;
  if (typeof email !== 'string' || typeof password !== 'string' || email.trim() === '' || password === '') {
    throw new BadRequestError('Missing fields');
  }
  return { email, password };
}
