/**
 * Issue 46, item 7: `users import` checks every webhook URL as the API does at save: a rule whose
 * URL is refused now (a private address) is imported disabled, with the reason (never the
 * address), and listed on standard error; a rule whose URLs pass is imported as it was.
 */
import { expect } from 'chai';
import { AlertStore } from '../../shared/alerts/alert-store.js';
import type { StoredRule } from '../../shared/alerts/alert-types.js';
import { startStack, type Stack } from '../support/stack.js';
import { runBuilt } from '../api/auth/helpers.js';

const rule = (id: string, url: string): StoredRule => ({
  id,
  userId: 'user-imported',
  name: id,
  condition: { type: 'rank', top: 3 },
  channels: [{ type: 'webhook', url }],
  cooldownSeconds: 0,
  enabled: true,
  disabledReason: null,
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
  secrets: [{ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', expiresAt: null }],
});

describe('users import: every webhook URL checked', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ workers: 0, env: { ALERTS_ALLOW_LOOPBACK: 'true' } });
  });
  after(() => stack.close());

  it('when a backup holds a rule with a private webhook, then it is imported disabled with the reason, the other as it was', async () => {
    const lines = [
      { type: 'alert-rule', rule: rule('alr_importprivate000', 'http://10.11.12.13/hook') },
      { type: 'alert-rule', rule: rule('alr_importloopback00', 'http://127.0.0.1:9/hook') },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const imported = await runBuilt('scripts/users.ts', ['import'], {
      env: { ...process.env, NODE_ENV: 'test', ...stack.redisEnv, ALERTS_ALLOW_LOOPBACK: 'true' },
      input: `${lines}\n`,
    });
    expect(imported.code, imported.stderr).to.equal(0);
    expect(imported.stderr).to.include('alr_importprivate000\twebhook channels.0.url is a private address, which is refused');
    expect(imported.stderr).to.not.include('10.11.12.13');
    const store = new AlertStore(stack.redis);
    const refused = await store.get('alr_importprivate000');
    expect(refused).to.include({
      enabled: false,
      disabledReason: 'imported disabled: webhook channels.0.url is a private address, which is refused',
    });
    expect(await store.get('alr_importloopback00')).to.include({ enabled: true, disabledReason: null });
  });
});
