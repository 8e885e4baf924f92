/** Arranging users and calling the auth routes, for the auth tests. */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../../support/build.js';
import type { Role } from '../../../apps/api/src/auth/types.js';
import { UserStore, type UserRecord } from '../../../apps/api/src/auth/users.js';
import { ownKeys } from '../../support/redis-keys.js';
import { http, type HttpAnswer } from '../../support/http.js';
import type { Stack } from '../../support/stack.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Adds a user straight through the store (optionally with a digest made elsewhere). */
export async function seedUser(
  stack: Stack,
  email: string,
  password: string,
  role: Role = 'user',
  passwordHash?: string,
): Promise<UserRecord> {
  const users = new UserStore(stack.redis);
  const user = await users.create({ email, role, passwordHash: passwordHash ?? (await stack.deps.auth.passwords.hash(password)) });
  if (!user) throw new Error(`${email} exists already`);
  return user;
}

/** POST /api/auth/login with a JSON body (or raw text with the given content type). */
export function postLogin(
  stack: Stack,
  body: unknown,
  init: { raw?: string; contentType?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  return http(`${stack.apiUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': init.contentType ?? 'application/json', ...init.headers },
    body: init.raw ?? JSON.stringify(body),
  });
}

/**
 * Logs in as a well-behaved client does: a 503 (argon2's queue full, on a machine the other test
 * files load) is tried again after its Retry-After, twice at most; any other answer but 200 throws.
 */
export async function tokenFor(stack: Stack, email: string, password: string): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    const res = await postLogin(stack, { email, password });
    if (res.status === 200) return (res.json as { token: string }).token;
    if (res.status !== 503 || attempt === 3) throw new Error(`login of ${email} answered ${res.status}`);
    await new Promise((resolve) => setTimeout(resolve, 1000 * (Number(res.headers.get('retry-after')) || 1)));
  }
}

/** Seeds `<name>@example.com` (password `<name> password 1`) for each name and logs each in: their bearer tokens by name. */
export async function loggedInUsers(stack: Stack, names: readonly string[]): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const name of names) {
    await seedUser(stack, `${name}@example.com`, `${name} password 1`);
    tokens[name] = await tokenFor(stack, `${name}@example.com`, `${name} password 1`);
  }
  return tokens;
}

/** Calls the API with a bearer token, and a JSON body when one is given. */
export function callAs(stack: Stack, token: string | undefined, method: string, path: string, body?: unknown): Promise<HttpAnswer> {
  return http(`${stack.apiUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Forgets every login failure, so each test starts with fresh throttle windows. */
export async function clearThrottle(stack: Stack): Promise<void> {
  // One slot ({login}), so one DEL takes them all, on a cluster too.
  const counters = await ownKeys(stack.redis, '{login}:fail:*');
  if (counters.length > 0) await stack.redis.del(...counters);
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in the repository, stdin piped (empty unless `input`), and collects its output. */
export function runProcess(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: options.env ?? process.env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Runs a script of the build (`dist/`, built once per run: test/support/build.ts), as the image runs
 * it: no TypeScript loader to start in each of the many children a test spawns.
 */
export function runBuilt(script: string, args: string[], options: { env: NodeJS.ProcessEnv; input?: string }): Promise<ProcessResult> {
  ensureBuilt();
  return runProcess(process.execPath, [join(ROOT, 'dist', script.replace(/\.ts$/, '.js')), ...args], options);
}

/** Runs a TypeScript entry point as `npx tsx` would (node with the tsx loader), stdin piped. */
export function runTs(script: string, args: string[], options: { env: NodeJS.ProcessEnv; input?: string }): Promise<ProcessResult> {
  return runProcess(process.execPath, ['--import', 'tsx', script, ...args], options);
}
