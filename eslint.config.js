import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/*
 * Layers: the API and the worker share code only through shared/, shared/
 * depends on no app, only tests import test/ (bench/ and dev/ included), dev/ does not import bench/, the API's domain modules do
 * not import its HTTP routes, http/ imports no domain folder, and routes/ and mcp/ see deps.ts as a type.
 * The code imports relatively ('../../../shared/x.js'), so each pattern starts with `**`.
 * A files block replaces the rule's options of an earlier block, so each block lists all of its groups.
 */
const NO_TEST = { group: ['**/test/**'], message: 'Only tests import test/: product code must not depend on test helpers.' };
const NO_WORKER = {
  group: ['**/apps/worker/**', '**/worker/src/**'],
  message: 'The API does not import the worker: share the code through shared/.',
};
const NO_API = {
  group: ['**/apps/api/**', '**/api/src/**'],
  message: 'The worker does not import the API: share the code through shared/.',
};
const NO_BENCH = {
  group: ['**/bench/**'],
  message: 'dev/ does not import bench/: what both need lives in dev/ (or shared/), and the bench imports it.',
};
const NO_APPS = { group: ['**/apps/**'], message: 'shared/ depends on no app: move what both need into shared/.' };
const NO_ROUTES = {
  group: ['**/routes/**'],
  message: 'A domain module does not import an HTTP route module: move the shared type or schema into the domain.',
};
const NO_DOMAIN = {
  group: [
    '**/auth/**',
    '**/alerts/**',
    '**/market/**',
    '**/stream/**',
    '**/mcp/**',
    '**/routes/**',
    '**/dashboard/**',
    '**/deps.js',
    '**/app.js',
    '**/metrics.js',
  ],
  allowTypeImports: true,
  message: 'http/ is the floor every route stands on: it imports no domain folder, route or wiring (types excepted).',
};
const DEPS_TYPE_ONLY = {
  group: ['**/deps.js'],
  allowTypeImports: true,
  message: 'Routes and MCP take their dependencies as an argument: import ApiDeps as a type only.',
};
const layer = (files, ...patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });
const DOMAIN = ['auth', 'alerts', 'market', 'stream', 'mcp', 'cache', 'openapi'].map((dir) => `apps/api/src/${dir}/**`);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'bench/results/', 'client/schema.ts', 'test/artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // A promise nobody awaits loses its rejection: fire-and-forget is written `void promise`, on purpose.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Modules import downward only: a cycle (a value import whose module imports the importer back,
    // however far round) is an error. This rule never follows a type-only import (import-x 4 has no
    // option to), so test/lint/import-cycles.test.ts checks the whole graph, `import type` included.
    // The code imports TypeScript files by their .js names (nodenext).
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  // Plain .js files (this one) are outside tsconfig: the rules that need types are off for them.
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
  // The dashboard's browser modules: checked by their own tsconfig (npm run typecheck), which knows the DOM.
  { files: ['apps/api/src/dashboard/public/**/*.js'], rules: { 'no-undef': 'off' } },
  layer(['apps/**', 'shared/**', 'scripts/**', 'bench/**', 'dev/**'], NO_TEST),
  layer(['dev/**'], NO_TEST, NO_BENCH),
  layer(['apps/api/**'], NO_TEST, NO_WORKER),
  layer(['apps/worker/**'], NO_TEST, NO_API),
  layer(['shared/**'], NO_TEST, NO_APPS),
  layer(DOMAIN, NO_TEST, NO_WORKER, NO_ROUTES),
  layer(['apps/api/src/http/**'], NO_TEST, NO_WORKER, NO_DOMAIN),
  layer(['apps/api/src/routes/**'], NO_TEST, NO_WORKER, DEPS_TYPE_ONLY),
  layer(['apps/api/src/mcp/**'], NO_TEST, NO_WORKER, NO_ROUTES, DEPS_TYPE_ONLY),
);
