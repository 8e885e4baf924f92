import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';

/*
 * import-x/no-cycle (eslint.config.js) never follows a type-only import, and has no option to:
 * this test closes that gap. It reads every TypeScript file tsconfig.json covers, takes each
 * relative import and export-from, `import type` included, and fails on any cycle.
 */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const ROOTS = ['apps', 'shared', 'scripts', 'dev', 'test', 'bench', 'client'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The repository's files each file imports (the code names TypeScript files by their .js names). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    const targets = importedFiles
      .filter(({ fileName }) => fileName.startsWith('.'))
      .map(({ fileName }) => resolve(dirname(file), fileName.replace(/\.js$/, '.ts')))
      .filter((target) => known.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** Each cycle found by a depth-first walk, as the files round it (one per back edge). */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('lint: import cycles, type-only imports included', () => {
  const graph = importGraph(ROOTS.flatMap((root) => tsFiles(join(repoRoot, root))));
  const at = (path: string) => join(repoRoot, path);

  it('when every relative import is followed, `import type` too, then no module imports itself back', () => {
    expect(graph.size).to.be.greaterThan(100);
    const found = cycles(graph).map((cycle) => cycle.map((file) => relative(repoRoot, file)).join(' -> '));
    expect(found).to.deep.equal([]);
  });

  it('when a module imports another only for a type, then the graph holds the edge and a cycle through it is found', () => {
    // bench/phases/history.ts: `import type { Verdict } from '../lib/interval.js'`.
    const importer = at('bench/phases/history.ts');
    const imported = at('bench/lib/interval.ts');
    expect(graph.get(importer)).to.include(imported);
    const closed = new Map(graph).set(imported, [...(graph.get(imported) ?? []), importer]);
    expect(cycles(closed).some((cycle) => cycle.includes(importer) && cycle.includes(imported))).to.equal(true);
  });
});
