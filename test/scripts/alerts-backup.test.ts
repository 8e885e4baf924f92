/**
 * `users export` / `users import` (the real command, a child process) carry each user's alert
 * rules with their signing secrets: after Redis loses the user and the rule, the import brings
 * back the same rule, and a delivery of it verifies at the receiver with the secret it was
 * given at creation (`standardwebhooks`).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { UserStore } from '../../apps/api/src/auth/users.js';
import { AlertStore } from '../../shared/alerts/alert-store.js';
import { http } from '../support/http.js';
import { eventually, startStack, type Stack } from '../support/stack.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { runBuilt, seedUser, tokenFor } from '../api/auth/helpers.js';

describe('users export / import carry the alert rules and their secrets', function () {
  this.timeout(60_000);
  let stack: Stack;
  let receiver: Receiver;
  let dir: string;

  before(async () => {
    stack = await startStack({ workers: 1, env: { ALERTS_ALLOW_LOOPBACK: 'true', REFRESH_INTERVAL: '24h' } });
    receiver = await startReceiver();
    dir = mkdtempSync(join(tmpdir(), 'alerts-backup-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await receiver?.close();
    await stack?.close();
  });

  const users = (args: string[], input?: string) =>
    runBuilt('scripts/users.ts', args, {
      // As the stack: its receivers are on loopback (import checks every webhook URL).
      env: { ...process.env, NODE_ENV: 'test', ...stack.redisEnv, ALERTS_ALLOW_LOOPBACK: 'true' },
      ...(input === undefined ? {} : { input }),
    });
  const call = (token: string, method: string, path: string, body?: unknown) =>
    http(`${stack.apiUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('when Redis loses a user and its rule and the export is imported, then the same rule is back and its deliveries verify with the same secret', async () => {
    const user = await seedUser(stack, 'hana@example.com', 'hana password 12');
    let token = await tokenFor(stack, 'hana@example.com', 'hana password 12');
    const created = await call(token, 'POST', '/api/alerts', {
      name: 'SOL on top',
      condition: { type: 'rank', token: 'SOL', top: 1 },
      channels: [{ type: 'webhook', url: receiver.url() }],
      cooldownSeconds: 600,
    });
    expect(created.status).to.equal(201);
    const { secret, ...rule } = created.json as { id: string; secret: string };
    receiver.secrets.push(secret);

    const out = join(dir, 'users.jsonl');
    const exported = await users(['export', '--out', out]);
    expect(exported.code, exported.stderr).to.equal(0);
    expect(statSync(out).mode & 0o777, 'the export holds the signing secrets: its owner only').to.equal(0o600);
    expect(readFileSync(out, 'utf8')).to.include(secret);

    // Redis loses them (a restart without persistence): the user and the rule, its indexes included.
    const alerts = new AlertStore(stack.redis);
    for (const stored of await alerts.listOwned(user.id)) await alerts.delete(stored);
    await new UserStore(stack.redis).remove('hana@example.com');
    expect(await alerts.get(rule.id)).to.equal(undefined);

    const imported = await users(['import'], readFileSync(out, 'utf8'));
    expect(imported.code, imported.stderr).to.equal(0);
    expect(imported.stdout).to.match(/^imported \d+ users?, 1 alert rule\n$/);
    token = await tokenFor(stack, 'hana@example.com', 'hana password 12');
    expect(((await call(token, 'GET', '/api/alerts')).json as { data: unknown[] }).data).to.deep.equal([rule]);
    expect(await alerts.indexed([['rank', 'SOL']])).to.deep.equal([rule.id]);

    const tested = await call(token, 'POST', `/api/alerts/${rule.id}/test`);
    expect(tested.status).to.equal(202);
    const { eventId } = tested.json as { eventId: string };
    const [delivered] = await eventually(() => {
      const got = receiver.received.filter((request) => request.id === eventId);
      return got.length > 0 ? got : undefined;
    }, 20_000);
    expect(delivered!.verifiedBy, 'verified with the secret given at creation').to.equal(0);
  });

  it('when a user is removed, then its alert rules go with it: nothing is evaluated or sent for it any more', async () => {
    const user = await seedUser(stack, 'ivan@example.com', 'ivan password 12');
    const token = await tokenFor(stack, 'ivan@example.com', 'ivan password 12');
    const created = await call(token, 'POST', '/api/alerts', {
      name: 'any new contract',
      condition: { type: 'new-contract' },
      channels: [{ type: 'webhook', url: receiver.url() }],
    });
    expect(created.status).to.equal(201);
    const { id } = created.json as { id: string };
    const removed = await users(['remove', 'ivan@example.com']);
    expect(removed.code, removed.stderr).to.equal(0);
    const alerts = new AlertStore(stack.redis);
    expect(await alerts.get(id)).to.equal(undefined);
    expect(await alerts.listOwned(user.id)).to.deep.equal([]);
    expect(await alerts.indexed([['new-contract', '*']])).to.not.include(id);
  });

  it('when an import line is a damaged alert rule, then exit 1 naming the line', async () => {
    const damaged = await users(['import'], '{"type":"alert-rule","rule":{"id":"alr_x","secrets":[]}}\n');
    expect(damaged.code).to.equal(1);
    expect(damaged.stderr).to.equal('users: line 1 is not an alert rule record\n');
  });
});
