/**
 * Heroku's app manifest (app.json) against what it deploys: the Procfile's process types, and
 * the variables shared/config.ts reads (found by recording every read, not from a list kept by
 * hand), so a renamed or new variable, or a new process type, fails here.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../shared/config.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface AppJson {
  formation: Record<string, { quantity: number; size: string }>;
  addons: { plan: string; as?: string }[];
  env: Record<string, { value?: string; generator?: string; required?: boolean; description: string }>;
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'app.json'), 'utf8')) as AppJson;
const procfileTypes = readFileSync(join(repoRoot, 'Procfile'), 'utf8')
  .split('\n')
  .map((line) => /^([a-z][\w-]*):/.exec(line)?.[1])
  .filter((type): type is string => type !== undefined);

/** The names loadConfig reads from `env`, recorded through a proxy. */
function variablesRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const recording = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return target[name as string];
    },
  });
  loadConfig(recording);
  return read;
}

/** What the platform sets: app.json's values, a generated secret, the add-on's URL, the required values the user enters. */
function herokuEnvironment(): Record<string, string> {
  const env: Record<string, string> = { REDIS_URL: 'rediss://:password@ec2-0-0-0-0.compute-1.amazonaws.com:12345', PORT: '41234' };
  for (const [name, spec] of Object.entries(manifest.env)) {
    if (spec.value !== undefined) env[name] = spec.value;
    else if (spec.generator === 'secret') env[name] = randomBytes(32).toString('hex');
    else if (spec.required) env[name] = name.endsWith('_URL') ? 'https://index.example.com' : 'entered-by-the-user';
  }
  return env;
}

describe('app.json (Heroku app manifest)', () => {
  it('when Heroku creates the formation, then it runs exactly the Procfile process types', () => {
    expect(procfileTypes).to.include.members(['web', 'worker']);
    expect(Object.keys(manifest.formation).sort()).to.deep.equal([...procfileTypes].sort());
    for (const process of Object.values(manifest.formation)) expect(process.quantity).to.be.at.least(1);
  });

  it('when the Redis add-on is provisioned, then it sets REDIS_URL, the variable config reads', () => {
    const redis = manifest.addons.filter((addon) => addon.plan.startsWith('heroku-redis:'));
    expect(redis).to.have.length(1);
    expect(redis[0]?.as ?? 'REDIS').to.equal('REDIS');
    expect(variablesRead(herokuEnvironment())).to.include('REDIS_URL');
  });

  it('when deployed, then /metrics is not public: METRICS_TOKEN is generated and the config takes it (issue 38 item 9)', () => {
    expect(manifest.env.METRICS_TOKEN?.generator).to.equal('secret');
    const config = loadConfig(herokuEnvironment());
    expect(config.metricsToken).to.be.a('string').with.length.at.least(16);
  });

  it('when a variable is declared, then shared/config.ts reads it (no typo, nothing stale)', () => {
    const read = new Set([
      ...variablesRead(herokuEnvironment()),
      // Sentinel's other variables are read only when REDIS_SENTINELS is set.
      ...variablesRead({ ...herokuEnvironment(), REDIS_URL: '', REDIS_SENTINELS: 'a:26379', REDIS_SENTINEL_MASTER: 'm' }),
    ]);
    for (const name of Object.keys(manifest.env)) expect(read, name).to.include(name);
  });

  it('when deployed, then NODE_ENV is production, JWT_SECRET generated, TRUST_PROXY on behind the router, and each is described', () => {
    expect(manifest.env.NODE_ENV?.value).to.equal('production');
    expect(manifest.env.JWT_SECRET?.generator).to.equal('secret');
    expect(manifest.env.JWT_SECRET?.value).to.equal(undefined);
    expect(manifest.env.TRUST_PROXY?.value).to.equal('true');
    for (const [name, spec] of Object.entries(manifest.env)) expect(spec.description, name).to.be.a('string').and.not.equal('');
  });

  it('when the platform has set everything app.json asks for, then the production configuration loads', () => {
    const config = loadConfig(herokuEnvironment());
    expect(config.nodeEnv).to.equal('production');
    expect(config.jwtSecretGenerated).to.equal(false);
    expect(config.trustProxy).to.equal(true);
    expect(config.redisTlsInsecure).to.equal(true);
  });

  it('when a value production requires is left out of app.json, then the configuration refuses to load', () => {
    for (const name of ['JWT_SECRET', 'INDEX_API_URL', 'REDIS_URL']) {
      const env = herokuEnvironment();
      delete env[name];
      expect(() => loadConfig(env), name).to.throw(name);
    }
  });
});
