import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../shared/config.js';

const composite = { INDEX_PROVIDER: 'composite', ELFA_API_KEY: 'e', X_BEARER_TOKEN: 'x', TRACKED_ACCOUNTS: 'alice,@Bob_1' };

describe('provider configuration (INDEX_PROVIDER)', () => {
  it('when nothing is set, then the index provider and no provider settings', () => {
    expect(loadConfig({})).to.include({ indexProvider: 'index', providers: undefined });
  });

  it('when composite, then the documented defaults', () => {
    const { providers } = loadConfig(composite);
    expect(providers).to.deep.equal({
      elfa: { apiKey: 'e', baseUrl: 'https://api.elfa.ai', monthlyCredits: undefined, dailyCredits: undefined },
      coingecko: { apiKey: undefined, plan: 'demo', baseUrl: 'https://api.coingecko.com/api/v3', pins: {} },
      x: { bearerToken: 'x', baseUrl: 'https://api.x.com', queryMaxLength: 512, requestsPerRefresh: 50 },
      trackedAccounts: ['alice', 'Bob_1'],
    });
    expect(
      loadConfig({ ...composite, COINGECKO_PLAN: 'pro', COINGECKO_IDS: 'axl:axelar, $Pepe:pepe' }).providers?.coingecko,
    ).to.deep.include({
      plan: 'pro',
      baseUrl: 'https://pro-api.coingecko.com/api/v3',
      pins: { AXL: 'axelar', PEPE: 'pepe' },
    });
  });

  it('when composite in production, then INDEX_API_URL is not needed', () => {
    expect(
      loadConfig({ ...composite, NODE_ENV: 'production', JWT_SECRET: 's'.repeat(32), REDIS_URL: 'redis://r:6379' }).indexProvider,
    ).to.equal('composite');
  });

  it('when TRACKED_ACCOUNTS is @file, then one username a line, comments and blanks skipped, duplicates once', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tracked-')), 'accounts.txt');
    writeFileSync(file, '# the index\nalice\n\n@bob_1\nALICE\n');
    expect(loadConfig({ ...composite, TRACKED_ACCOUNTS: `@${file}` }).providers?.trackedAccounts).to.deep.equal(['ALICE', 'bob_1']);
  });

  const refusals: [Record<string, string>, RegExp][] = [
    [{ INDEX_PROVIDER: 'elfa' }, /^INDEX_PROVIDER: must be index or composite/],
    [{ ...composite, ELFA_API_KEY: '' }, /^ELFA_API_KEY: required with INDEX_PROVIDER=composite$/],
    [{ ...composite, X_BEARER_TOKEN: '' }, /^X_BEARER_TOKEN: required with INDEX_PROVIDER=composite$/],
    [{ ...composite, TRACKED_ACCOUNTS: '' }, /^TRACKED_ACCOUNTS: required/],
    [{ ...composite, TRACKED_ACCOUNTS: 'alice,not a name' }, /^TRACKED_ACCOUNTS: "not a name" is not an X username/],
    [{ ...composite, TRACKED_ACCOUNTS: '@/nonexistent/file' }, /^TRACKED_ACCOUNTS: cannot read \/nonexistent\/file \(ENOENT\)/],
    [{ ...composite, COINGECKO_PLAN: 'free' }, /^COINGECKO_PLAN: must be demo or pro/],
    [{ ...composite, COINGECKO_IDS: 'axl' }, /^COINGECKO_IDS: must be SYMBOL:coin-id/],
    [{ ...composite, ELFA_MONTHLY_CREDITS: 'lots' }, /^ELFA_MONTHLY_CREDITS: must be a whole number/],
    [{ ...composite, ELFA_DAILY_CREDITS: '2' }, /^ELFA_DAILY_CREDITS: must be a whole number from 3/],
    [
      { ...composite, ELFA_DAILY_CREDITS: '30', ELFA_MONTHLY_CREDITS: '1000' },
      /^ELFA_DAILY_CREDITS: set it or ELFA_MONTHLY_CREDITS, not both$/,
    ],
    [{ ...composite, ELFA_API_URL: 'ftp://x' }, /^ELFA_API_URL: must start with http/],
    [{ ...composite, X_API_URL: 'https://api.x.com/?token=1' }, /^X_API_URL: must be a base address/],
    [{ ...composite, COINGECKO_API_URL: 'nope' }, /^COINGECKO_API_URL: not a valid URL/],
    [{ ...composite, X_QUERY_MAX_LENGTH: '20' }, /^X_QUERY_MAX_LENGTH: must be a whole number from 64 to 4096, got "20"$/],
    [{ ...composite, X_REQUESTS_PER_REFRESH: '0' }, /^X_REQUESTS_PER_REFRESH: must be a whole number from 1 to 10000/],
  ];
  for (const [env, message] of refusals) {
    it(`when ${JSON.stringify(env)}, then a ConfigError naming the variable`, () => {
      expect(() => loadConfig(env)).to.throw(ConfigError, message);
    });
  }

  it('when a key is missing, then the process exits 1 with one line naming the variable', async () => {
    const { spawnSync } = await import('node:child_process');
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', '-e', "import('./shared/config.ts').then((m) => m.loadConfigOrExit())"],
      {
        env: { PATH: process.env.PATH ?? '', INDEX_PROVIDER: 'composite', X_BEARER_TOKEN: 'x', TRACKED_ACCOUNTS: 'a' },
        encoding: 'utf8',
      },
    );
    expect(result.status).to.equal(1);
    expect(result.stderr).to.equal('Configuration error: ELFA_API_KEY: required with INDEX_PROVIDER=composite\n');
  });
});
