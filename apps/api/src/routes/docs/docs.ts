/** GET /openapi.json and GET /docs (docs/decisions.md#d9), Scalar's reference, whose bundle is served here: users' networks may have no CDN. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import { Representation, sendRepresentation, type EncodingNegotiator } from '../../http/representation.js';
import { openApiDocument } from './openapi.js';
import { pageCsp } from '../../http/page-csp.js';

const MAX_AGE_SECONDS = 3600;

/**
 * Scalar's standalone bundle (4 MB), copied by `npm run build` to dist/vendor/, so production, which
 * prunes devDependencies, needs no Scalar package (~300 MB); from source it is read from node_modules.
 */
function scalarBundle(): Buffer {
  const built = fileURLToPath(new URL('../../../../../vendor/scalar-api-reference.js', import.meta.url));
  if (existsSync(built)) return readFileSync(built);
  return readFileSync(join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser', 'standalone.js'));
}

/** This origin for the document and the try-it console, no web fonts (a CDN's) and nothing that calls Scalar's services. */
const SCALAR_INIT = `Scalar.createApiReference('#app', Object.assign(${JSON.stringify({
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  defaultOpenAllTags: true,
})}, { servers: [{ url: window.location.origin, description: 'This server' }] }));\n`;

/** Scalar (Vue) writes inline styles, so styles cannot be tighter. */
const CSP = pageCsp("'self' 'unsafe-inline'", "font-src 'self' data:");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${openApiDocument.info.title} ${openApiDocument.info.version}</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="app"></div>
<script src="/docs/assets/scalar.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

export function docsRoutes(encodings: EncodingNegotiator, router = new Router()): Router {
  const document = Representation.json(openApiDocument);
  const init = new Representation(Buffer.from(SCALAR_INIT));
  // Read on first request: a process that never serves /docs never holds the 4 MB bundle.
  let bundle: Representation | undefined;
  const asset = (file: string): Representation | undefined => {
    if (file === 'init.js') return init;
    if (file === 'scalar.js') return (bundle ??= new Representation(scalarBundle()));
    return undefined;
  };

  router.get('/openapi.json', (ctx) => {
    sendRepresentation(ctx, document, MAX_AGE_SECONDS, encodings);
  });

  router.get('/docs', (ctx) => {
    ctx.set('Cache-Control', `public, max-age=${MAX_AGE_SECONDS}`);
    ctx.set('Content-Security-Policy', CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });

  // Not API operations, so not in the document (test/api/docs.test.ts leaves them out).
  router.get('/docs/assets/:file', (ctx) => {
    const representation = asset(ctx.params.file ?? '');
    if (!representation) return; // 404 from the error contract
    sendRepresentation(ctx, representation, MAX_AGE_SECONDS, encodings, 'text/javascript; charset=utf-8');
  });

  return router;
}
