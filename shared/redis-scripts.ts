/**
 * The Lua scripts, one file each in `shared/lua/` (`<name>-<numberOfKeys>.lua`, or `<name>.lua`
 * when the caller passes the number of keys), each headed by its KEYS, ARGV and output. Read once
 * at start-up and defined once per client (`defineCommand`: EVALSHA, EVAL only when the server
 * does not know the script yet). `npm run build` copies the files next to this module in `dist/`.
 */
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

/** Each script and its fixed number of keys (undefined: variable, passed with each call). */
const NUMBER_OF_KEYS = {
  writeRefresh: undefined,
  putUser: 2,
  setPasswordHash: 1,
  reserveLoginAttempt: undefined,
  releaseLoginAttempt: undefined,
  chargeMissBudget: 1,
  createApiKey: 4,
  useApiKey: 1,
  revokeApiKey: 4,
  recordRefreshFailure: 2,
  createAlertRule: 4,
  commitAlertEvaluation: undefined,
  writeAlertRule: undefined,
  chargeAlertTestBudget: 2,
  countMentions: 3,
  recordCalls: undefined,
  recordBreakouts: 2,
  admitDeliveries: 1,
  gateHost: 1,
  recordHostAttempt: 1,
} as const satisfies Record<string, number | undefined>;

export type ScriptName = keyof typeof NUMBER_OF_KEYS;

const LUA_DIR = new URL('./lua/', import.meta.url);

const SOURCES = Object.fromEntries(
  Object.entries(NUMBER_OF_KEYS).map(([name, numberOfKeys]) => {
    const file = numberOfKeys === undefined ? `${name}.lua` : `${name}-${numberOfKeys}.lua`;
    return [name, readFileSync(new URL(file, LUA_DIR), 'utf8')];
  }),
) as Record<ScriptName, string>;

type ScriptCommand = (...args: (string | number)[]) => Promise<unknown>;

const defined = new WeakSet<Redis>();

function define(redis: Redis): void {
  if (defined.has(redis)) return;
  for (const name of Object.keys(NUMBER_OF_KEYS) as ScriptName[]) {
    const numberOfKeys: number | undefined = NUMBER_OF_KEYS[name];
    redis.defineCommand(name, numberOfKeys === undefined ? { lua: SOURCES[name] } : { lua: SOURCES[name], numberOfKeys });
  }
  defined.add(redis);
}

/**
 * Runs the script `name` with these keys and arguments and returns its reply. A script that
 * fails (an error reply, a failed `redis.call`) rejects with Redis's error.
 */
export async function runScript(
  redis: Redis,
  name: ScriptName,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  define(redis);
  // defineCommand adds the method to this client at run time; the type system cannot see it.
  const command = (redis as unknown as Record<ScriptName, ScriptCommand>)[name];
  const numberOfKeys: number | undefined = NUMBER_OF_KEYS[name];
  if (numberOfKeys === undefined) return command.call(redis, keys.length, ...keys, ...args);
  if (keys.length !== numberOfKeys) throw new Error(`script ${name} takes ${numberOfKeys} keys, not ${keys.length}`);
  return command.call(redis, ...keys, ...args);
}
