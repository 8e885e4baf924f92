import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ESLint } from 'eslint';

/*
 * The import rules of eslint.config.js, proven on code placed in each layer: lintText lints the
 * given text as if it were the file at `filePath` (a real file, so the type-aware rules find it in
 * tsconfig), and the file on disk is not read or changed.
 */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Each problem as `ruleId: message`. */
async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'fatal'}: ${message.message}`);
}

const ruleIds = async (filePath: string, code: string) => (await problems(filePath, code)).map((problem) => problem.split(':')[0]);

let eslint: ESLint;

describe('lint: layer imports and promises', function () {
  // The first type-aware lint builds the TypeScript program: seconds on a busy machine.
  this.timeout(60_000);

  before(() => {
    eslint = new ESLint({ cwd: repoRoot });
  });

  // [what, file, import, the rule's message for that layer]
  const offending: [string, string, string, string][] = [
    ['the API imports the worker', 'apps/api/src/app.ts', "import '../../worker/src/main.js';", 'The API does not import the worker'],
    ['the worker imports the API', 'apps/worker/src/main.ts', "import '../../api/src/app.js';", 'The worker does not import the API'],
    ['shared/ imports an app', 'shared/errors.ts', "import '../apps/api/src/app.js';", 'shared/ depends on no app'],
    [
      'a domain module imports a route module',
      'apps/api/src/auth/users.ts',
      "import '../routes/auth/schema.js';",
      'does not import an HTTP route module',
    ],
    [
      'a domain module imports the worker',
      'apps/api/src/market/stats-service.ts',
      "import '../../../worker/src/main.js';",
      'The API does not import the worker',
    ],
    ['an app imports test/', 'apps/worker/src/main.ts', "import '../../../test/support/eventually.js';", 'Only tests import test/'],
    ['shared/ imports test/', 'shared/errors.ts', "import '../test/support/eventually.js';", 'Only tests import test/'],
    ['a script imports test/', 'scripts/users.ts', "import '../test/support/eventually.js';", 'Only tests import test/'],
    ['the bench imports test/', 'bench/run.ts', "import '../test/support/eventually.js';", 'Only tests import test/'],
    ['a dev tool imports test/', 'dev/demo-user.ts', "import '../test/support/eventually.js';", 'Only tests import test/'],
    ['a bench phase imports test/', 'bench/phases/x-cost.ts', "import '../../test/support/eventually.js';", 'Only tests import test/'],
    ['a dev tool imports the bench', 'dev/login-flood.ts', "import '../bench/run.js';", 'dev/ does not import bench/'],
    [
      'an alerts module imports a route module',
      'apps/api/src/alerts/alerts-service.ts',
      "import '../routes/alerts/alerts.js';",
      'does not import an HTTP route module',
    ],
    [
      'an alerts module imports the worker',
      'apps/api/src/alerts/alert-feed.ts',
      "import '../../../worker/src/alerts/evaluator.js';",
      'The API does not import the worker',
    ],
    [
      'an alerts module imports test/',
      'apps/api/src/alerts/alert-metrics.ts',
      "import '../../../../test/support/eventually.js';",
      'Only tests import test/',
    ],
    ['http/ imports an alerts module', 'apps/api/src/http/cors.ts', "import '../alerts/alerts-service.js';", 'http/ is the floor'],
    ['http/ imports a market module', 'apps/api/src/http/cors.ts', "import '../market/reads.js';", 'http/ is the floor'],
    ['http/ imports a route module', 'apps/api/src/http/drain.ts', "import '../routes/market/market.js';", 'http/ is the floor'],
    [
      'http/ imports the wiring',
      'apps/api/src/http/representation.ts',
      "import { createApiDeps } from '../deps.js';",
      'http/ is the floor',
    ],
    [
      'a route imports the wiring as a value',
      'apps/api/src/routes/market/market.ts',
      "import { createApiDeps } from '../../deps.js';",
      'import ApiDeps as a type only',
    ],
    [
      'MCP imports the wiring as a value',
      'apps/api/src/mcp/tools.ts',
      "import { createApiDeps } from '../deps.js';",
      'import ApiDeps as a type only',
    ],
  ];
  for (const [what, filePath, code, message] of offending) {
    it(`when ${what} (${filePath}), then no-restricted-imports reports it`, async () => {
      const found = await problems(filePath, `${code}\n`);
      expect(found.filter((problem) => problem.startsWith('no-restricted-imports:') && problem.includes(message))).to.have.length(1);
    });
  }

  it('when a route imports its domain and the domain imports shared/, then no import is reported', async () => {
    expect(await ruleIds('apps/api/src/routes/auth/schema.ts', "import '../../auth/types.js';\n")).to.not.include('no-restricted-imports');
    expect(await ruleIds('apps/api/src/auth/users.ts', "import { keys } from '../../../../shared/keyspace.js';\n")).to.not.include(
      'no-restricted-imports',
    );
  });

  it('when http/ imports a domain type, or a route imports ApiDeps as a type, then no import is reported', async () => {
    expect(await ruleIds('apps/api/src/http/request-context.ts', "import type { HttpMetrics } from '../metrics.js';\n")).to.not.include(
      'no-restricted-imports',
    );
    expect(await ruleIds('apps/api/src/routes/market/market.ts', "import type { ApiDeps } from '../../deps.js';\n")).to.not.include(
      'no-restricted-imports',
    );
  });

  it('when a module imports a module that imports it back, then import-x/no-cycle reports it; a type-only import is not followed', async () => {
    // shared/snapshot-keys.ts imports the kinds' table: the table importing the keys would close a cycle.
    const cycle = "import { historyKeys } from './snapshot-keys.js';\nexport const eventsOf = historyKeys.events;\n";
    expect(await ruleIds('shared/snapshot-kinds.ts', cycle)).to.include('import-x/no-cycle');
    const typeOnly = "import type { historyKeys } from './snapshot-keys.js';\nexport type Keys = typeof historyKeys;\n";
    expect(await ruleIds('shared/snapshot-kinds.ts', typeOnly)).to.not.include('import-x/no-cycle');
  });

  it('when a promise is neither awaited nor marked void, then no-floating-promises reports it; `void` marks it on purpose', async () => {
    const floating = 'async function later(): Promise<void> {}\nlater();\n';
    expect(await ruleIds('apps/api/src/app.ts', floating)).to.include('@typescript-eslint/no-floating-promises');
    const marked = 'async function later(): Promise<void> {}\nvoid later();\n';
    expect(await ruleIds('apps/api/src/app.ts', marked)).to.not.include('@typescript-eslint/no-floating-promises');
  });
});
