/**
 * `npm run users -- add <email> [--role admin|user] | passwd <email> | remove <email> | list | export [--out <file>] | import [--restore-revoked]`
 * and `key ...` (scripts/api-key-commands.ts); docs/decisions.md#d5, README (Users; API keys).
 * In production: `node dist/scripts/users.js ...`. The password comes from standard input when it
 * is not a terminal (its first line), else from a prompt without echo, asked twice. Errors: one
 * line on stderr and exit code 1.
 */
import { closeSync, fchmodSync, fstatSync, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { ApiKeyStore } from '../apps/api/src/auth/api-keys.js';
import { hashPassword } from '../apps/api/src/auth/passwords.js';
import type { Role } from '../apps/api/src/auth/types.js';
import { isRole, UserStore } from '../apps/api/src/auth/users.js';
import { AlertStore } from '../shared/alerts/alert-store.js';
import { StoredRuleSchema } from '../shared/alerts/alert-types.js';
import { urlRefusal } from '../shared/alerts/address-policy.js';
import { boundedResolver } from '../shared/alerts/bounded-resolver.js';
import { loadConfigOrExit } from '../shared/config.js';
import { isRedisUnavailable } from '../shared/redis-errors.js';
import { closeRedis, createRedis, waitForReplicas } from '../shared/redis.js';
import { emailOf, runKeyCommand, UsageError } from './api-key-commands.js';

const MIN_PASSWORD_LENGTH = 12;

/** An `api-key` line of an export: the stored hash's fields and the SHA-256 it lives under. */
const KEY_BACKUP = z.object({ type: z.literal('api-key'), sha256: z.string(), fields: z.record(z.string(), z.string()) });

const USAGE =
  'usage: users add <email> [--role admin|user] | passwd <email> | remove <email> | list | export [--out <file>] | import [--restore-revoked] | key create|list|revoke';

function emailArgument(positionals: string[]): string {
  const raw = positionals[1];
  if (raw === undefined) throw new UsageError(USAGE);
  if (positionals.length > 2) throw new UsageError(`unexpected argument "${positionals[2]}"; ${USAGE}`);
  return emailOf(raw);
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return firstLineOfStdin();
  const password = await promptHidden('Password: ');
  if ([...password].length >= MIN_PASSWORD_LENGTH && (await promptHidden('Repeat password: ')) !== password)
    throw new UsageError('the passwords do not match');
  return password;
}

async function firstLineOfStdin(): Promise<string> {
  // Leaving the loop closes the reader.
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) return line;
  return '';
}

/** Reads one line from the terminal in raw mode, echoing nothing. */
function promptHidden(prompt: string): Promise<string> {
  process.stderr.write(prompt);
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve) => {
    let value = '';
    const onData = (chunk: string) => {
      for (const char of chunk) {
        // Enter or Ctrl-D ends the line; Ctrl-C ends the command.
        if (char === '\r' || char === '\n' || char === '\u0004' || char === '\u0003') {
          stdin.off('data', onData);
          stdin.setRawMode(false);
          stdin.pause();
          process.stderr.write('\n');
          if (char === '\u0003') process.exit(130);
          resolve(value);
          return;
        }
        if (char === '\u007f' || char === '\b') value = [...value].slice(0, -1).join('');
        else value += char;
      }
    };
    stdin.on('data', onData);
  });
}

async function newPasswordHash(): Promise<string> {
  const password = await readPassword();
  if ([...password].length < MIN_PASSWORD_LENGTH) throw new UsageError(`the password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  return hashPassword(password);
}

async function run(argv: string[], connect: () => Redis): Promise<void> {
  if (argv[0] === 'key') return runKeyCommand(argv.slice(1), connect);
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { role: { type: 'string' }, out: { type: 'string' }, 'restore-revoked': { type: 'boolean' } },
  });
  const command = positionals[0];
  if (values.role !== undefined && command !== 'add') throw new UsageError(`--role applies to add only; ${USAGE}`);
  if (values.out !== undefined && command !== 'export') throw new UsageError(`--out applies to export only; ${USAGE}`);
  if (values['restore-revoked'] !== undefined && command !== 'import')
    throw new UsageError(`--restore-revoked applies to import only; ${USAGE}`);
  const needsEmail = command === 'add' || command === 'passwd' || command === 'remove';
  const whole = command === 'list' || command === 'export' || command === 'import';
  if (!needsEmail && !whole) throw new UsageError(command ? `unknown command "${command}"; ${USAGE}` : USAGE);
  if (whole && positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"; ${USAGE}`);
  const email = needsEmail ? emailArgument(positionals) : '';
  const role = values.role ?? 'user';
  if (!isRole(role)) throw new UsageError(`role must be admin or user, got "${role}"`);

  const redis = connect();
  try {
    const users = new UserStore(redis);
    // A change is reported done only once the replicas have it: a failover must not undo it.
    const replicated = () => waitForReplicas(redis);
    switch (command) {
      case 'add':
        return await add(users, email, role, replicated);
      case 'passwd':
        return await passwd(users, email, replicated);
      case 'remove': {
        const removed = await users.find(email);
        if (!(await users.remove(email))) throw new UsageError(`no user ${email}`);
        // Its keys die with it (the API also refuses a key whose user is gone); here they are deleted.
        await new ApiKeyStore(redis).revokeAll(email);
        // And everything of its alerts (rules, indexes, firings): nothing is sent on behalf of a user
        // who is gone; its queued deliveries find their rule gone and are dropped.
        if (removed) await new AlertStore(redis).removeUser(removed.id);
        await replicated();
        return say(`removed ${email}`);
      }
      case 'export': {
        const dumped = await users.dump();
        const apiKeys = await new ApiKeyStore(redis).dump(dumped.map((hash) => hash.email ?? ''));
        // Each user's alert rules with their signing secrets: restored, their receivers verify as before.
        const alerts = new AlertStore(redis);
        const rules = [];
        for (const { id } of dumped) if (id) rules.push(...(await alerts.listOwned(id)).map((rule) => ({ type: 'alert-rule', rule })));
        const lines = [...dumped, ...apiKeys, ...rules].map((entry) => `${JSON.stringify(entry)}\n`).join('');
        return writeBackup(lines, values.out);
      }
      case 'import':
        return await restore(redis, replicated, values['restore-revoked'] ?? false);
      default:
        for (const user of await users.list()) process.stdout.write(`${user.email}\t${user.role}\t${user.createdAt}\n`);
    }
  } finally {
    await closeRedis(redis);
  }
}

async function add(users: UserStore, email: string, role: Role, replicated: () => Promise<void>): Promise<void> {
  // Checked before asking for a password, and again atomically when creating.
  if (await users.find(email)) throw new UsageError(`user ${email} already exists`);
  const created = await users.create({ email, role, passwordHash: await newPasswordHash() });
  if (!created) throw new UsageError(`user ${email} already exists`);
  await replicated();
  say(`added ${email} (${role})`);
}

async function passwd(users: UserStore, email: string, replicated: () => Promise<void>): Promise<void> {
  if (!(await users.find(email))) throw new UsageError(`no user ${email}`);
  // changePassword, not setPasswordHash: a new password also revokes the tokens issued before it.
  if (!(await users.changePassword(email, await newPasswordHash()))) throw new UsageError(`no user ${email}`);
  await replicated();
  say(`password changed for ${email}`);
}

/**
 * The backup holds every password digest and key hash: it is written readable by its owner only
 * (0600), to `--out` or to standard output when that is a file (`users export > users.jsonl`).
 */
function writeBackup(lines: string, out: string | undefined): void {
  if (out !== undefined) {
    const fd = openSync(out, 'w', 0o600);
    try {
      fchmodSync(fd, 0o600); // an existing file keeps its mode on open
      writeSync(fd, lines);
    } finally {
      closeSync(fd);
    }
    return;
  }
  if (fstatSync(1).isFile()) {
    try {
      fchmodSync(1, 0o600);
    } catch {
      process.stderr.write('users: could not make the export file readable by its owner only (chmod 600 it, or use --out)\n');
    }
  }
  process.stdout.write(lines);
}

/**
 * Reads `export`'s lines from standard input and writes each user, and each API key, back as it
 * was; except a key revoked here since the backup, which is listed and left revoked unless
 * `restoreRevoked` (a restore must not bring back a key someone revoked for a reason).
 */
async function restore(redis: Redis, replicated: () => Promise<void>, restoreRevoked: boolean): Promise<void> {
  const [users, apiKeys, alerts] = [new UserStore(redis), new ApiKeyStore(redis), new AlertStore(redis)];
  let line = 0;
  let restoredUsers = 0;
  let restoredKeys = 0;
  let restoredRules = 0;
  const leftRevoked: string[] = [];
  const disabledRules: string[] = [];
  for await (const text of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    line += 1;
    if (text.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UsageError(`line ${line} is not JSON: import reads what export wrote`);
    }
    const entry = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    if (entry.type === 'api-key') {
      const backup = KEY_BACKUP.safeParse(entry).data;
      if (!backup) throw new UsageError(`line ${line} is not an API key record`);
      const id = backup.fields.id ?? '';
      const revokedAt = (await apiKeys.revokedAt([id])).get(id);
      if (revokedAt !== undefined && !restoreRevoked) {
        leftRevoked.push(`${id}\t${backup.fields.email ?? ''}\t${backup.fields.name ?? ''}\trevoked ${revokedAt}`);
        continue;
      }
      if (!(await apiKeys.restore(backup))) throw new UsageError(`line ${line} is not an API key record`);
      restoredKeys += 1;
      continue;
    }
    if (entry.type === 'alert-rule') {
      const rule = StoredRuleSchema.safeParse(entry.rule);
      if (!rule.success) throw new UsageError(`line ${line} is not an alert rule record`);
      // Every webhook URL is checked as the API checks it: one refused now is imported disabled, with why.
      const refusal = await channelsRefusal(rule.data.channels.map((channel) => channel.url));
      if (refusal) disabledRules.push(`${rule.data.id}\t${refusal}`);
      await alerts.restore(refusal ? { ...rule.data, enabled: false, disabledReason: `imported disabled: ${refusal}` } : rule.data);
      restoredRules += 1;
      continue;
    }
    const fields = Object.entries(entry);
    if (
      fields.length === 0 ||
      !fields.every(([, value]) => typeof value === 'string') ||
      !(await users.restore(Object.fromEntries(fields) as Record<string, string>))
    ) {
      throw new UsageError(`line ${line} is not a user record`);
    }
    restoredUsers += 1;
  }
  await replicated();
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const keysNote =
    (restoredKeys > 0 ? `, ${count(restoredKeys, 'API key')}` : '') + (restoredRules > 0 ? `, ${count(restoredRules, 'alert rule')}` : '');
  const revokedNote = leftRevoked.length > 0 ? `; ${count(leftRevoked.length, 'API key')} revoked since the backup left revoked` : '';
  say(`imported ${count(restoredUsers, 'user')}${keysNote}${revokedNote}`);
  if (leftRevoked.length > 0)
    process.stderr.write(`users: not restored, revoked since the backup (--restore-revoked restores them):\n${leftRevoked.join('\n')}\n`);
  if (disabledRules.length > 0)
    process.stderr.write(`users: alert rules imported disabled, a webhook URL refused:\n${disabledRules.join('\n')}\n`);
}

/** Why one of a rule's webhook URLs may not be used now (as the API would say at save), or undefined. */
async function channelsRefusal(urls: readonly string[]): Promise<string | undefined> {
  const { requireHttps, allowLoopback, connectTimeoutMs } = config.alerts;
  const resolve = boundedResolver({ timeoutMs: connectTimeoutMs });
  for (const [index, url] of urls.entries()) {
    const refusal = await urlRefusal(url, { requireHttps, allowLoopback, resolve });
    if (refusal) return `webhook channels.${index}.url ${refusal}`;
  }
  return undefined;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

const config = loadConfigOrExit();
run(process.argv.slice(2), () => createRedis(config, 'worker', 'users-command')).then(
  () => process.exit(0),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const line =
      error instanceof UsageError || isArgsError(error)
        ? message
        : isRedisUnavailable(error)
          ? 'cannot reach Redis (check REDIS_URL or REDIS_SENTINELS)'
          : `failed: ${message}`;
    process.stderr.write(`users: ${line}\n`);
    process.exit(1);
  },
);

function isArgsError(error: unknown): boolean {
  return String((error as { code?: unknown } | null)?.code).startsWith('ERR_PARSE_ARGS');
}
