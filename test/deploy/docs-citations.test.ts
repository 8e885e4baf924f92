/**
 * The repository stands alone: the contract lives in docs/, and every citation of it in the
 * code, tests and README names a file and a decision anchor that exist.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => /\.(ts|md|json)$/.test(file) && !file.startsWith('bench/results/') && existsSync(join(root, file)));

describe('citations of the contract (docs/)', () => {
  it('when a file cites docs/decisions.md#dN, then that anchor exists', () => {
    const anchors = new Set([...readFileSync(join(root, 'docs/decisions.md'), 'utf8').matchAll(/<a id="(d\d+)"><\/a>/g)].map((m) => m[1]));
    const cited: string[] = [];
    for (const file of files) {
      for (const match of readFileSync(join(root, file), 'utf8').matchAll(/docs\/decisions\.md#(d\d+)((?:, #d\d+)*)/g)) {
        const ids = [match[1], ...[...(match[2] ?? '').matchAll(/#(d\d+)/g)].map((m) => m[1])];
        for (const id of ids) if (!anchors.has(id ?? '')) cited.push(`${file}: #${id}`);
      }
    }
    expect(cited).to.deep.equal([]);
  });

  it('when a file points outside the repository for the spec, decisions or data, then the test names it', () => {
    const outside = files.filter((file) => /\.\.\/shared\/(spec|data|guides)\/|shared\/spec\//.test(readFileSync(join(root, file), 'utf8')));
    expect(outside).to.deep.equal([]);
  });
});
