/** GET /openapi.json and GET /docs (D9): the OpenAPI document, and a self-contained page rendering it. */
import Router from '@koa/router';
import { Representation, sendRepresentation } from '../../http/representation.js';
import {
  HTTP_METHODS,
  openApiDocument,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationObject,
  type SchemaObject,
} from './openapi.js';

const MAX_AGE_SECONDS = 3600;

export function docsRoutes(router = new Router()): Router {
  const document = Representation.json(openApiDocument);
  const page = renderDocsPage(openApiDocument);

  router.get('/openapi.json', (ctx) => {
    sendRepresentation(ctx, document, MAX_AGE_SECONDS);
  });

  router.get('/docs', (ctx) => {
    ctx.set('Cache-Control', `public, max-age=${MAX_AGE_SECONDS}`);
    // Everything is inline: no script at all, styles only from the page itself.
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'");
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  });

  return router;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** A short human name for a schema: `TrendingToken[]`, `integer (min 1, default 20)`, ... */
function schemaLabel(schema: SchemaObject): string {
  if (schema.$ref) return schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1);
  if (schema.type === 'array') return `${schema.items ? schemaLabel(schema.items) : 'unknown'}[]`;
  const details: string[] = [];
  if (schema.format) details.push(schema.format);
  if (schema.enum) details.push(`one of ${schema.enum.join(', ')}`);
  if (schema.const !== undefined) details.push(`always ${String(schema.const)}`);
  if (schema.pattern) details.push(`pattern ${schema.pattern}`);
  if (schema.minimum !== undefined) details.push(`min ${schema.minimum}`);
  if (schema.maximum !== undefined) details.push(`max ${schema.maximum}`);
  if (schema.default !== undefined) details.push(`default ${String(schema.default)}`);
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  return details.length > 0 ? `${type} (${details.join(', ')})` : type;
}

function resolve(doc: OpenApiDocument, schema: SchemaObject): SchemaObject {
  if (!schema.$ref) return schema;
  return doc.components.schemas[schemaLabel(schema)] ?? schema;
}

function fieldsTable(doc: OpenApiDocument, schema: SchemaObject): string {
  const resolved = resolve(doc, schema);
  if (!resolved.properties) return '';
  const rows = Object.entries(resolved.properties).map(
    ([name, field]) =>
      `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(schemaLabel(field))}</td>` +
      `<td>${resolved.required?.includes(name) ? 'yes' : 'no'}</td><td>${escapeHtml(field.description ?? '')}</td></tr>`,
  );
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function contentList(content: Record<string, MediaTypeObject> | undefined): string {
  if (!content) return '';
  return Object.entries(content)
    .map(([type, media]) => `<code>${escapeHtml(type)}</code> ${escapeHtml(schemaLabel(media.schema))}`)
    .join(', ');
}

function renderOperation(doc: OpenApiDocument, path: string, method: string, op: OperationObject): string {
  const id = `${method}-${path}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const parts: string[] = [
    `<section class="op" id="${escapeHtml(id)}">`,
    `<h3><span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h3>`,
    `<p class="summary">${escapeHtml(op.summary)}</p>`,
  ];
  if (op.description) parts.push(`<p>${escapeHtml(op.description)}</p>`);
  if (op.security && op.security.length > 0) {
    const schemes = op.security.flatMap((requirement) => Object.keys(requirement));
    parts.push(`<p><strong>Authentication:</strong> ${escapeHtml(schemes.join(', '))} (<code>Authorization: Bearer &lt;token&gt;</code>)</p>`);
  }

  parts.push('<h4>Parameters</h4>');
  if (op.parameters && op.parameters.length > 0) {
    const rows = op.parameters.map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${escapeHtml(schemaLabel(p.schema))}</td>` +
        `<td>${p.required ? 'yes' : 'no'}</td><td>${escapeHtml(p.description)}</td></tr>`,
    );
    parts.push(`<table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`);
  } else {
    parts.push('<p>None.</p>');
  }

  parts.push('<h4>Request body</h4>');
  if (op.requestBody) {
    parts.push(`<p>${escapeHtml(op.requestBody.description)} ${contentList(op.requestBody.content)}</p>`);
    for (const media of Object.values(op.requestBody.content)) parts.push(fieldsTable(doc, media.schema));
  } else {
    parts.push('<p>None.</p>');
  }

  parts.push('<h4>Responses</h4>');
  const rows = Object.entries(op.responses).map(
    ([status, response]) =>
      `<tr><td class="status s${escapeHtml(status.charAt(0))}">${escapeHtml(status)}</td><td>${escapeHtml(response.description)}</td>` +
      `<td>${contentList(response.content)}</td></tr>`,
  );
  parts.push(`<table><thead><tr><th>Status</th><th>Description</th><th>Body</th></tr></thead><tbody>${rows.join('')}</tbody></table>`);
  parts.push('</section>');
  return parts.join('\n');
}

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1100px;padding:1rem 2rem;color:#1d2330}
h1{margin-bottom:.2rem}h2{border-bottom:2px solid #dde;padding-bottom:.2rem;margin-top:2.5rem}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em}
.op{border:1px solid #dde;border-radius:6px;padding:.2rem 1rem 1rem;margin:1.2rem 0}
.op h3{margin:.6rem 0}.op h4{margin:.8rem 0 .3rem}.summary{font-weight:600}
.method{display:inline-block;min-width:4.2em;text-align:center;border-radius:4px;color:#fff;padding:0 .4em;font-size:.85em}
.get{background:#2f7bd8}.post{background:#2c9a5a}.put,.patch{background:#c98a14}.delete{background:#c73b3b}
table{border-collapse:collapse;width:100%;font-size:.92em}th,td{border:1px solid #e3e3ea;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f5f8}.status{font-weight:700}.s2,.s3{color:#2c7a4b}.s4{color:#b25d00}.s5{color:#b22}
nav ul{columns:2;padding-left:1.2rem}
`;

/** The whole page, rendered once: a title, a table of contents, one section per path and method, then the schemas. */
export function renderDocsPage(doc: OpenApiDocument): string {
  const toc: string[] = [];
  const sections: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const id = `${method}-${path}`.replace(/[^A-Za-z0-9_-]/g, '_');
      toc.push(`<li><a href="#${escapeHtml(id)}">${escapeHtml(method.toUpperCase())} <code>${escapeHtml(path)}</code></a> — ${escapeHtml(op.summary)}</li>`);
      sections.push(renderOperation(doc, path, method, op));
    }
  }
  const schemas = Object.entries(doc.components.schemas).map(
    ([name, schema]) =>
      `<section class="op" id="schema-${escapeHtml(name)}"><h3><code>${escapeHtml(name)}</code></h3>` +
      `<p>${escapeHtml(schema.description ?? '')}</p>${fieldsTable(doc, schema)}</section>`,
  );
  const title = `${doc.info.title} ${doc.info.version}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(doc.info.description)}</p>
<p>OpenAPI ${escapeHtml(doc.openapi)} document: <a href="/openapi.json"><code>/openapi.json</code></a></p>
<nav><h2>Endpoints</h2><ul>${toc.join('\n')}</ul></nav>
<h2>Operations</h2>
${sections.join('\n')}
<h2>Schemas</h2>
${schemas.join('\n')}
</body>
</html>
`;
}
