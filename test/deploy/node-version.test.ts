/**
 * The Node check in front of every entry point (scripts/node-version.js): on a Node older than
 * engines.node, `npm start`, `npm test` and the Procfile's processes print one line naming Node 24
 * and the running version, and exit 1 before anything else loads. Run with the machine's older Node
 * (Debian's /usr/bin/node) when there is one; skipped where that Node is itself new enough.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OLD_NODE = '/usr/bin/node';
const floor = /^>=(\d+\.\d+)$/.exec(
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node,
)?.[1];

function oldNodeVersion(): string | undefined {
  if (!existsSync(OLD_NODE)) return undefined;
  const version = spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const [major = 0, minor = 0] = version.slice(1).split('.').map(Number);
  const [wantMajor = 0, wantMinor = 0] = (floor ?? '0.0').split('.').map(Number);
  return major < wantMajor || (major === wantMajor && minor < wantMinor) ? version : undefined;
}

/** A shell with only the old Node on the PATH, as on a machine whose system Node is too old. */
function underOldNode(command: string): { status: number | null; stderr: string } {
  const result = spawnSync('sh', ['-c', command], {
    cwd: root,
    env: { PATH: `${dirname(OLD_NODE)}:/bin`, HOME: process.env.HOME ?? '' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stderr: result.stderr };
}

function procfileLine(type: string): string {
  const line = readFileSync(join(root, 'Procfile'), 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${type}:`));
  return line?.slice(type.length + 1).trim() ?? '';
}

describe('the Node version check (scripts/node-version.js)', function () {
  this.timeout(60_000);
  const version = oldNodeVersion();

  it('engines.node is a plain ">=MAJOR.MINOR" floor, which the check reads', () => {
    expect(floor).to.be.a('string');
  });

  it('under the running (supported) Node, it says nothing and exits 0', () => {
    const result = spawnSync(process.execPath, ['scripts/node-version.js'], { cwd: root, encoding: 'utf8' });
    expect(result.status).to.equal(0);
    expect(result.stdout + result.stderr).to.equal('');
  });

  for (const [name, command] of [
    ['npm start', 'npm start'],
    ['npm test', 'npm test'],
    ['the Procfile web process', `exec ${procfileLine('web')}`],
    ['the Procfile worker process', `exec ${procfileLine('worker')}`],
  ] as const) {
    it(`under an older Node, ${name} prints one line naming Node 24 and that version, and exits 1`, function () {
      if (!version) this.skip();
      const result = underOldNode(command);
      expect(result.status, result.stderr).to.equal(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines, result.stderr).to.have.length(1);
      expect(lines[0]).to.contain('needs Node 24').and.contain(`this is Node ${version}`).and.contain('npm install -g');
    });
  }
});
