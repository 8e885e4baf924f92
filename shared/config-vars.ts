/**
 * How config.ts and provider-config.ts read a variable: each value through a zod schema whose
 * message names what is wanted. A bad value is recorded, not thrown, so that loadConfig() reports
 * every bad variable at once (one line each) and an operator fixes a deploy in one try.
 */
import { z } from 'zod';

export type Env = Readonly<Record<string, string | undefined>>;

/** Bad environment values, one line each (`NAME: what is wrong`): main() prints them and exits 1. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly string[];
  constructor(...problems: string[]) {
    super(problems.join('\n'));
    this.problems = problems;
  }
}

const recorded = new WeakMap<Env, string[]>();

/** Runs `read` over a copy of `source` and throws one ConfigError listing every problem it recorded. */
export function readAll<T>(source: Env, read: (env: Env) => T): T {
  // An object of its own to file the problems under, reading through to the source (not a copy:
  // a copy reads only the variables that are set, and app.json's test records every variable read).
  const env: Env = new Proxy(source, {});
  const problems: string[] = [];
  recorded.set(env, problems);
  const result = read(env);
  if (problems.length > 0) throw new ConfigError(...problems);
  return result;
}

/** Records one bad variable (`NAME: ...`); the reader goes on with a stand-in value. */
export function problem(env: Env, line: string): undefined {
  const problems = recorded.get(env);
  if (!problems) throw new ConfigError(line);
  problems.push(line);
  return undefined;
}

/** Variable `name` through `schema`: unset or empty gives `fallback`, a refused value records the schema's message. */
export function variable<T, F extends T | undefined>(env: Env, name: string, schema: z.ZodType<T, string>, fallback: F): T | F {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  problem(env, `${name}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return fallback;
}

/** A zod error option that ends its message with the refused value. */
export function got(text: string): { error: (issue: { input?: unknown }) => string } {
  return { error: (issue) => `${text}, got "${String(issue.input)}"` };
}

export function wholeNumber(min: number, max: number): z.ZodType<number, string> {
  const must = got(`must be a whole number from ${min} to ${max}`);
  return z.string().regex(/^\d+$/, must).transform(Number).pipe(z.number().min(min, must).max(max, must));
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  return variable(env, name, wholeNumber(min, max), fallback);
}

const BOOLEAN = z
  .string()
  .toLowerCase()
  .pipe(z.enum(['true', '1', 'false', '0'], got('must be true or false')))
  .transform((raw) => raw === 'true' || raw === '1');

/** `true`/`1` or `false`/`0`, in any case; unset or empty gives `fallback`. */
export function boolean(env: Env, name: string, fallback = false): boolean {
  return variable(env, name, BOOLEAN, fallback);
}

/** An http(s) or redis(s) address; `base`: one that paths are joined to, so no query or fragment (it would be lost). */
export function url(protocols: readonly string[], base?: { hint: string }): z.ZodType<string, string> {
  const schema = z
    .string()
    .refine((raw) => URL.canParse(raw), { message: 'not a valid URL', abort: true })
    .refine((raw) => protocols.includes(new URL(raw).protocol), {
      message: `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`,
      abort: true,
    });
  if (!base) return schema;
  return schema.refine(
    (raw) => !new URL(raw).search && !new URL(raw).hash,
    `must be a base address without ?query or #fragment${base.hint}`,
  );
}

export function oneOf<const T extends string>(values: readonly T[]): z.ZodType<T, string> {
  return z.enum(values as [T, ...T[]], got(`must be ${values.slice(0, -1).join(', ')} or ${values.at(-1)}`));
}
