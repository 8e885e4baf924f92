/**
 * The repository stands alone: the contract lives in docs/, and every citation of it in the
 * code, tests and README names a file and a decision anchor that exist.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'results', 'artifacts']);
/** The repository's .ts, .md and .json files (a copy without .git too, as CI runs it). */
const files = readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.(ts|md|json)$/.test(entry.name))
  .map((entry) => relative(root, join(entry.parentPath, entry.name)))
  .filter((file) => !file.split('/').some((part) => SKIPPED.has(part)));

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
    const outside = files.filter((file) =>
      /\.\.\/shared\/(spec|data|guides)\/|shared\/spec\//.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(outside).to.deep.equal([]);
  });
});
