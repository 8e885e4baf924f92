/**
 * `users key create <email> [--name <label>] [--expires <n>d|<n>h] | key list <email> | key revoke <id>`:
 * integrators' API keys (issue 21; README, API keys), dispatched from scripts/users.ts. `create`
 * prints the key alone on stdout (a script can capture it) and its note on stderr.
 */
import { stripInvisible } from '../shared/provider-text.js';
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { ApiKeyStore, MAX_NAME_LENGTH } from '../apps/api/src/auth/api-keys.js';
import { isPlausibleEmail, normaliseEmail, UserStore } from '../apps/api/src/auth/users.js';
import { closeRedis, waitForReplicas } from '../shared/redis.js';

export const KEY_USAGE = 'usage: users key create <email> [--name <label>] [--expires <n>d|<n>h] | key list <email> | key revoke <id>';

/** A mistake of the caller (here or in users.ts): its message is printed as is. */
export class UsageError extends Error {}

const KEY_ID = /^key_[0-9A-Za-z]{12}$/;
/** The longest lifetime `--expires` takes: ten years. */
const MAX_LIFETIME_MS = 3650 * 86_400_000;

/** `raw` as a normalised email address, or a UsageError naming it. */
export function emailOf(raw: string): string {
  const email = normaliseEmail(raw);
  if (!isPlausibleEmail(email)) throw new UsageError(`"${raw}" is not a valid email address`);
  return email;
}

/** `--expires 90d` or `12h` as milliseconds. */
function lifetime(raw: string): number {
  const match = /^(\d{1,6})([dh])$/.exec(raw);
  const ms = match ? Number(match[1]) * (match[2] === 'd' ? 86_400_000 : 3_600_000) : NaN;
  if (!(ms >= 3_600_000 && ms <= MAX_LIFETIME_MS))
    throw new UsageError(`--expires must be a lifetime from 1h to 3650d such as 90d or 12h, got "${raw}"`);
  return ms;
}

export async function runKeyCommand(argv: string[], connect: () => Redis): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, expires: { type: 'string' } },
  });
  const [action, subject, extra] = positionals;
  if (action !== 'create' && action !== 'list' && action !== 'revoke')
    throw new UsageError(action ? `unknown key command "${action}"; ${KEY_USAGE}` : KEY_USAGE);
  if (subject === undefined) throw new UsageError(KEY_USAGE);
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"; ${KEY_USAGE}`);
  if (values.name !== undefined && action !== 'create') throw new UsageError(`--name applies to key create only; ${KEY_USAGE}`);
  if (values.expires !== undefined && action !== 'create') throw new UsageError(`--expires applies to key create only; ${KEY_USAGE}`);
  const lifetimeMs = values.expires === undefined ? undefined : lifetime(values.expires);
  // Invisible characters (bidi controls, zero-width, tags) would make `key list` lie on a terminal: removed.
  const name = stripInvisible(values.name ?? '');
  if ([...name].length > MAX_NAME_LENGTH || /[\p{Cc}]/u.test(name))
    throw new UsageError(`the name must be at most ${MAX_NAME_LENGTH} characters, without tabs or line breaks`);
  if (action === 'revoke' && !KEY_ID.test(subject))
    throw new UsageError(`"${subject}" is not a key id (key_ and 12 letters or digits, as key list shows)`);
  const email = action === 'revoke' ? '' : emailOf(subject);

  const redis = connect();
  try {
    const store = new ApiKeyStore(redis);
    switch (action) {
      case 'create': {
        const created = await store.create(new UserStore(redis), email, name, lifetimeMs);
        if (!created) throw new UsageError(`no user ${email}`);
        await waitForReplicas(redis);
        process.stdout.write(`${created.key}\n`);
        const expiry = created.expiresAt ? `, expires ${created.expiresAt}` : '';
        process.stderr.write(`created ${created.info.id} for ${email}${expiry}: store the key now, it is not shown again\n`);
        return;
      }
      case 'list':
        if (!(await new UserStore(redis).find(email))) throw new UsageError(`no user ${email}`);
        for (const key of await store.list(email)) {
          process.stdout.write(
            `${key.id}\t${key.name || '-'}\t…${key.last4}\t${key.createdAt}\t${key.lastUsedAt ?? 'never'}\t${key.expiresAt ?? '-'}\n`,
          );
        }
        return;
      case 'revoke': {
        const revoked = await store.revoke(subject);
        if (!revoked) throw new UsageError(`no key ${subject}`);
        await waitForReplicas(redis);
        process.stdout.write(`revoked ${revoked.id} of ${revoked.email}\n`);
        return;
      }
    }
  } finally {
    await closeRedis(redis);
  }
}
