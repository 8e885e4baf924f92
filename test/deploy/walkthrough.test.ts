/**
 * docs/adding-a-snapshot-kind.md stays true: its snippets, applied to a scratch copy of the
 * repository where its comments say, type-check, and touch exactly the production files the
 * walkthrough names.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WALKTHROUGH = 'docs/adding-a-snapshot-kind.md';

interface Snippet {
  file: string;
  where: 'after' | 'before' | 'instead';
  anchor: string;
  code: string;
}

/** Each `<!-- walkthrough: file | where | anchor -->` comment and the code block after it. */
function snippetsOf(markdown: string): Snippet[] {
  const found = [...markdown.matchAll(/<!-- walkthrough: (\S+) \| (after|before|instead) \| (.+?) -->\n\s*```ts\n([\s\S]*?)\n\s*```/g)];
  return found.map(([, file, where, anchor, code]) => {
    // The block is indented as a list item: its first line's indentation beyond the fence is the code's own.
    const fence = /\n( *)```ts\n/.exec(markdown.slice(markdown.indexOf(anchor!)))?.[1]?.length ?? 0;
    const lines = code!.split('\n').map((line) => line.slice(Math.min(fence, line.length - line.trimStart().length)));
    return { file: file!, where: where as Snippet['where'], anchor: anchor!, code: lines.join('\n') };
  });
}

/** Applies a snippet at the last line equal to its anchor (indentation aside). */
function apply(text: string, { file, where, anchor, code }: Snippet): string {
  const lines = text.split('\n');
  const at = lines.findLastIndex((line) => line.trim() === anchor.trim());
  if (at === -1) throw new Error(`${WALKTHROUGH}: no line "${anchor}" in ${file}: update the walkthrough`);
  const added = code.split('\n');
  if (where === 'after') lines.splice(at + 1, 0, ...added);
  else if (where === 'before') lines.splice(at, 0, ...added);
  else lines.splice(at, 1, ...added);
  return lines.join('\n');
}

describe(`the walkthrough (${WALKTHROUGH})`, function () {
  // One type check of apps/ and shared/: about a minute on a busy machine.
  this.timeout(300_000);
  let scratch: string;

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'walkthrough-'));
    for (const part of ['apps', 'shared', 'tsconfig.json', 'package.json'])
      cpSync(join(root, part), join(scratch, part), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('when its snippets are applied where it says, then they touch the 6 production files it names, and everything type-checks', async () => {
    const markdown = readFileSync(join(root, WALKTHROUGH), 'utf8');
    const snippets = snippetsOf(markdown);
    expect(snippets.length).to.be.greaterThan(5);
    const files = [...new Set(snippets.map((snippet) => snippet.file))];
    for (const file of files) {
      const path = join(scratch, file);
      writeFileSync(path, snippets.filter((snippet) => snippet.file === file).reduce(apply, readFileSync(path, 'utf8')));
    }
    expect(files).to.have.length(6);
    for (const file of files) expect(markdown, `the walkthrough names ${file} in its list of files`).to.include(`\`${file}\``);

    const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, types: ['node'] }, include: ['apps', 'shared'] }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', scratch], { cwd: scratch }).catch(
      (error: { stdout?: string }) => error,
    );
    expect('stdout' in result ? String(result.stdout) : '', 'tsc on the scratch copy').to.equal('');
  });
});
