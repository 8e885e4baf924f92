/**
 * The Cluster leg (.mocharc.cluster.js) runs the files that prove each Redis code path on a
 * cluster: every Lua script of shared/lua/ must be named there by a file that exists, so a new
 * script cannot go untested on Cluster.
 */
import { existsSync, readdirSync } from 'node:fs';
import { expect } from 'chai';

// A plain-JS mocha config: imported by name, so the type is stated here.
const configFile = '../../.mocharc.cluster.js';
const { CLUSTER_PATHS } = (await import(configFile)) as { CLUSTER_PATHS: Record<string, string[]> };

const scripts = readdirSync('shared/lua')
  .filter((file) => file.endsWith('.lua'))
  .map((file) => file.replace(/(-\d+)?\.lua$/, ''));

describe('the Cluster leg', () => {
  it('when a Lua script exists, then a file of the Cluster leg names it', () => {
    const named = new Set(Object.values(CLUSTER_PATHS).flat());
    expect(scripts.filter((script) => !named.has(script))).to.deep.equal([]);
  });

  it('when a file is listed, then it exists', () => {
    expect(Object.keys(CLUSTER_PATHS).filter((file) => !existsSync(file))).to.deep.equal([]);
  });
});
