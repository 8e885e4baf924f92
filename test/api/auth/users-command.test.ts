import { expect } from 'chai';
import { UserStore } from '../../../apps/api/src/auth/users.js';
import { keys } from '../../../shared/keyspace.js';
import { http } from '../../support/http.js';
import { startStack, type Stack } from '../../support/stack.js';
import { clearThrottle, postLogin, runBuilt, runProcess, runTs, tokenFor, type ProcessResult } from './helpers.js';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment of a child process: the test's Redis, and none of the parent's secrets. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.JWT_SECRET;
  return { ...env, ...extra };
}

describe('npm run users (scripts/users.ts), as a child process against Redis', function () {
  this.timeout(30_000);
  let stack: Stack;
  const users = (args: string[], input?: string): Promise<ProcessResult> =>
    runBuilt('scripts/users.ts', args, {
      env: childEnv({ NODE_ENV: 'test', ...stack.redisEnv }),
      ...(input === undefined ? {} : { input }),
    });
  const expectRefused = (result: ProcessResult, message: RegExp) => {
    expect(result.code, result.stderr).to.equal(1);
    expect(result.stderr.trim().split('\n'), 'one line').to.have.length(1);
    expect(result.stderr).to.match(message);
  };

  before(async () => {
    stack = await startStack({ workers: 0 });
  });
  after(() => stack.close());
  beforeEach(() => clearThrottle(stack));

  it('when a user is added with the password piped in, then it can log in and open /api/auth/me', async () => {
    const added = await users(['add', '  Grace@Example.com '], 'a long enough password\nsecond line ignored\n');
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stdout).to.equal('added grace@example.com (user)\n');
    const token = await tokenFor(stack, 'grace@example.com', 'a long enough password');
    const me = await http(`${stack.apiUrl}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(me.json).to.include({ email: 'grace@example.com', role: 'user' });
  });

  it('when --role admin is given, then the user is an admin', async () => {
    const added = await users(['add', 'root@example.com', '--role', 'admin'], 'root password 123\n');
    expect(added.code, added.stderr).to.equal(0);
    expect((await new UserStore(stack.redis).find('root@example.com'))?.role).to.equal('admin');
  });

  it('when the email is taken (in any case), then exit 1 and the stored user is untouched', async () => {
    const before = await stack.redis.hgetall(keys.user('grace@example.com'));
    expectRefused(await users(['add', 'GRACE@example.com'], 'another long password\n'), /^users: user grace@example\.com already exists$/m);
    expect(await stack.redis.hgetall(keys.user('grace@example.com'))).to.deep.equal(before);
  });

  it('when the password is shorter than 12 characters, then exit 1 and no user', async () => {
    expectRefused(await users(['add', 'short@example.com'], 'elevenchars\n'), /at least 12 characters/);
    expectRefused(await users(['add', 'empty@example.com']), /at least 12 characters/);
    expect(await new UserStore(stack.redis).find('short@example.com')).to.equal(null);
  });

  for (const bad of ['not-an-email', 'a@b', 'two@@example.com', 'sp ace@example.com', '']) {
    it(`when the email is ${JSON.stringify(bad)}, then exit 1`, async () => {
      expectRefused(await users(['add', bad], 'a long enough password\n'), /is not a valid email address/);
    });
  }

  it('when the role, the command or the arguments are wrong, then exit 1 with a clear line', async () => {
    expectRefused(await users(['add', 'x@example.com', '--role', 'root'], 'a long enough password\n'), /role must be admin or user/);
    expectRefused(await users(['frobnicate']), /unknown command "frobnicate"/);
    expectRefused(await users([]), /^users: usage: /);
    expectRefused(await users(['add']), /^users: usage: /);
    expectRefused(await users(['list', '--force']), /Unknown option/);
  });

  it('when listing, then email, role and creation time, never a digest', async () => {
    const listed = await users(['list']);
    expect(listed.code, listed.stderr).to.equal(0);
    const rows = listed.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows.map(([email, role]) => [email, role])).to.deep.equal([
      ['grace@example.com', 'user'],
      ['root@example.com', 'admin'],
    ]);
    for (const row of rows) expect(new Date(row[2]!).toISOString()).to.equal(row[2]);
    expect(listed.stdout).not.to.include('argon2');
  });

  it('when the password is changed, then only the new one logs in', async () => {
    const changed = await users(['passwd', 'grace@example.com'], 'the brand new password\n');
    expect(changed.code, changed.stderr).to.equal(0);
    expect((await postLogin(stack, { email: 'grace@example.com', password: 'a long enough password' })).status).to.equal(401);
    expect((await postLogin(stack, { email: 'grace@example.com', password: 'the brand new password' })).status).to.equal(200);
    expectRefused(await users(['passwd', 'grace@example.com'], 'too short\n'), /at least 12 characters/);
  });

  it('when a user is removed, then it is gone from the store, the list and the login', async () => {
    const removed = await users(['remove', 'Grace@example.com']);
    expect(removed.code, removed.stderr).to.equal(0);
    expect(await stack.redis.sismember(keys.users(), 'grace@example.com')).to.equal(0);
    expect(await stack.redis.exists(keys.user('grace@example.com'))).to.equal(0);
    expect((await users(['list'])).stdout).not.to.include('grace@');
    expect((await postLogin(stack, { email: 'grace@example.com', password: 'the brand new password' })).status).to.equal(401);
  });

  it('when a key is made with --expires, then list shows its expiry, and a bad lifetime is refused with one line', async () => {
    await users(['add', 'expiring@example.com'], 'a long enough password\n');
    const created = await users(['key', 'create', 'expiring@example.com', '--expires', '90d']);
    expect(created.code, created.stderr).to.equal(0);
    const expires = /, expires (\S+): store the key now/.exec(created.stderr)?.[1];
    expect(Date.parse(expires!) - Date.now()).to.be.within(90 * 86_400_000 - 60_000, 90 * 86_400_000);
    const listed = (await users(['key', 'list', 'expiring@example.com'])).stdout.trimEnd().split('\t');
    expect(listed[5]).to.equal(expires);
    for (const bad of ['90', '0d', '4000d']) {
      expectRefused(
        await users(['key', 'create', 'expiring@example.com', '--expires', bad]),
        /^users: --expires must be a lifetime from 1h to 3650d/,
      );
    }
    expectRefused(await users(['key', 'list', 'expiring@example.com', '--expires', '1d']), /--expires applies to key create only/);
  });

  it('when a key is made with a label holding bidi controls, zero-width and tag characters, then key list and GET /api/auth/me show it without them (issue 38 item 9)', async () => {
    await users(['add', 'labels@example.com'], 'a long enough password\n');
    // RLO ... PDF reverses what a terminal shows; ZWSP and a tag "A" are invisible.
    const label = 'price\u202Ebot\u202C\u200B \u2066x\u2069\u{E0041}\uFEFF';
    const created = await users(['key', 'create', 'labels@example.com', '--name', label]);
    expect(created.code, created.stderr).to.equal(0);
    const key = created.stdout.trim();
    const listed = (await users(['key', 'list', 'labels@example.com'])).stdout.trimEnd().split('\t');
    expect(listed[1]).to.equal('pricebot x');
    const me = await http(`${stack.apiUrl}/api/auth/me`, { headers: { 'X-Api-Key': key } });
    expect(me.status).to.equal(200);
    expect((me.json as { credential: { name: string } }).credential.name).to.equal('pricebot x');
    expect(me.body.toString()).not.to.match(/[\u200B\u202A-\u202E\u2066-\u2069\uFEFF]|\\u20|\u{E0041}/u);
  });

  it('when users and their keys are exported, Redis loses them and the export is imported, then the same keys authenticate again', async () => {
    await users(['add', 'backup@example.com'], 'a long enough password\n');
    const key = (await users(['key', 'create', 'backup@example.com', '--name', 'restored bot'])).stdout.trim();
    const expiring = (await users(['key', 'create', 'backup@example.com', '--expires', '2d'])).stdout.trim();
    const me = (apiKey: string) => http(`${stack.apiUrl}/api/auth/me`, { headers: { 'X-Api-Key': apiKey } });
    expect((await me(key)).status).to.equal(200);
    const exported = await users(['export']);
    expect(exported.code, exported.stderr).to.equal(0);
    expect(exported.stdout).not.to.include(key);

    const store = new UserStore(stack.redis);
    const before = (await store.list()).length;
    await loseUsers();
    expect((await me(key)).status).to.equal(401);

    const imported = await users(['import'], exported.stdout);
    expect(imported.code, imported.stderr).to.equal(0);
    expect(imported.stdout).to.match(new RegExp(`^imported ${before} users, \\d+ API keys\n$`));
    expect((await me(key)).json).to.deep.include({ email: 'backup@example.com' });
    expect(((await me(key)).json as { credential: { name: string } }).credential.name).to.equal('restored bot');
    expect((await me(expiring)).status).to.equal(200);
    const listed = (await users(['key', 'list', 'backup@example.com'])).stdout.trimEnd().split('\n');
    expect(listed).to.have.length(2);
    expect(
      listed.some((row) => row.split('\t')[5] !== '-'),
      'the expiry came back too',
    ).to.equal(true);
  });

  /** Redis loses the users and their keys (a restart without persistence): nothing says any key was revoked. */
  async function loseUsers(): Promise<void> {
    for (const email of await stack.redis.smembers(keys.users())) {
      for (const id of await stack.redis.smembers(keys.userApiKeys(email))) {
        const sha256 = await stack.redis.get(keys.apiKeyId(id));
        if (sha256) await stack.redis.del(keys.apiKey(sha256));
        await stack.redis.del(keys.apiKeyId(id));
      }
      await stack.redis.del(keys.userApiKeys(email), keys.user(email));
    }
    await stack.redis.del(keys.users(), keys.revokedApiKeys());
  }

  it('when a key was revoked since the backup, then import lists it and leaves it revoked; --restore-revoked brings it back (issue 38 item 3)', async () => {
    await users(['add', 'revoker@example.com'], 'a long enough password\n');
    const kept = (await users(['key', 'create', 'revoker@example.com', '--name', 'kept'])).stdout.trim();
    const leaked = (await users(['key', 'create', 'revoker@example.com', '--name', 'leaked'])).stdout.trim();
    const me = (apiKey: string) => http(`${stack.apiUrl}/api/auth/me`, { headers: { 'X-Api-Key': apiKey } });
    const exported = await users(['export']);
    expect(exported.code, exported.stderr).to.equal(0);
    const leakedId = ((await me(leaked)).json as { credential: { id: string } }).credential.id;
    expect((await users(['key', 'revoke', leakedId])).code).to.equal(0);
    expect((await me(leaked)).status).to.equal(401);

    const imported = await users(['import'], exported.stdout);
    expect(imported.code, imported.stderr).to.equal(0);
    expect(imported.stdout).to.match(/; 1 API key revoked since the backup left revoked\n$/);
    expect(imported.stderr).to.match(
      new RegExp(`--restore-revoked restores them\\):\n${leakedId}\trevoker@example\\.com\tleaked\trevoked \\S+\n$`),
    );
    expect((await me(leaked)).status, 'the revoked key').to.equal(401);
    expect((await me(kept)).status).to.equal(200);

    const forced = await users(['import', '--restore-revoked'], exported.stdout);
    expect(forced.code, forced.stderr).to.equal(0);
    expect((await me(leaked)).status, 'restored on request').to.equal(200);
  });

  it('when users are exported to a file (--out, or standard output redirected), then the file is readable by its owner only (0600)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'users-export-'));
    try {
      const out = join(dir, 'out.jsonl');
      writeFileSync(out, 'old\n', { mode: 0o644 });
      const written = await users(['export', '--out', out]);
      expect(written.code, written.stderr).to.equal(0);
      expect(statSync(out).mode & 0o777).to.equal(0o600);
      expect(readFileSync(out, 'utf8')).to.match(/^\{.*"email"/);

      const redirected = join(dir, 'redirected.jsonl');
      const shell = await runProcess(
        'sh',
        ['-c', `umask 022; exec "$0" --import tsx scripts/users.ts export > '${redirected}'`, process.execPath],
        {
          env: childEnv({ NODE_ENV: 'test', ...stack.redisEnv }),
        },
      );
      expect(shell.code, shell.stderr).to.equal(0);
      expect(statSync(redirected).mode & 0o777).to.equal(0o600);
      expect(readFileSync(redirected, 'utf8')).to.equal(readFileSync(out, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when an import line is a damaged key record, then exit 1 naming the line', async () => {
    expectRefused(
      await users(['import'], '{"type":"api-key","sha256":"nothex","fields":{}}\n'),
      /^users: line 1 is not an API key record$/m,
    );
  });

  it('when the user is unknown, then passwd and remove exit 1', async () => {
    expectRefused(await users(['passwd', 'ghost@example.com'], 'a long enough password\n'), /^users: no user ghost@example\.com$/m);
    expectRefused(await users(['remove', 'ghost@example.com']), /^users: no user ghost@example\.com$/m);
  });
});

describe('start-up checks', function () {
  this.timeout(30_000);

  it('when NODE_ENV=production has no JWT_SECRET, then the API refuses to start with one line', async () => {
    const env = childEnv({ NODE_ENV: 'production', REDIS_URL: 'redis://127.0.0.1:1', INDEX_API_URL: 'http://127.0.0.1:1', PORT: '0' });
    const result = await runTs('apps/api/src/main.ts', [], { env });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.equal('Configuration error: JWT_SECRET: required when NODE_ENV=production (at least 32 bytes)\n');
  });

  it('when JWT_SECRET is shorter than 32 bytes, then the API refuses to start with one line', async () => {
    const env = childEnv({
      NODE_ENV: 'production',
      JWT_SECRET: 'too-short',
      REDIS_URL: 'redis://127.0.0.1:1',
      INDEX_API_URL: 'http://127.0.0.1:1',
    });
    const result = await runTs('apps/api/src/main.ts', [], { env });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.equal('Configuration error: JWT_SECRET: must be at least 32 bytes, got 9\n');
  });

  it('loads argon2 and hashes with it (the native module works on this Node)', async () => {
    const argon2 = await import('argon2');
    const digest = await argon2.hash('smoke test', { type: argon2.argon2id });
    expect(await argon2.verify(digest, 'smoke test')).to.equal(true);
    expect(await argon2.verify(digest, 'smoke tesT')).to.equal(false);
  });
});
