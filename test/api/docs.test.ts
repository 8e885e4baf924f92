import type Router from '@koa/router';
import { expect } from 'chai';
import type { oas31 } from 'zod-openapi';
import { apiRouter } from '../../apps/api/src/app.js';
import { http } from '../support/http.js';
import { startStack, type Stack } from '../support/stack.js';

type OpenApiDocument = oas31.OpenAPIObject;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** `GET /api/market/stats/{username}` for every route a router registers (HEAD is Koa's own). */
function registeredRoutes(routers: Router[]): string[] {
  const routes = new Set<string>();
  for (const router of routers) {
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string') throw new Error(`a RegExp route cannot be documented: ${String(layer.path)}`);
      const path = layer.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      if (path.startsWith('/docs/assets/')) continue; // the reference page's scripts, not API operations
      if (path === '/' || path.startsWith('/assets/')) continue; // the dashboard, a page for people (docs/decisions.md#d16)
      for (const method of layer.methods) if (method !== 'HEAD') routes.add(`${method} ${path}`);
    }
  }
  return [...routes].sort();
}

function documentedRoutes(doc: OpenApiDocument): string[] {
  const routes: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) if (item[method]) routes.push(`${method.toUpperCase()} ${path}`);
  }
  return routes.sort();
}

describe('API documentation: GET /openapi.json and GET /docs', () => {
  let stack: Stack;
  const get = (path: string, init?: RequestInit) => http(`${stack.apiUrl}${path}`, init);

  before(async () => {
    stack = await startStack({ workers: 0 });
  });
  after(() => stack.close());

  describe('GET /openapi.json', () => {
    it('answers an OpenAPI 3.1.0 JSON document with an ETag, and 304 on If-None-Match', async () => {
      const res = await get('/openapi.json');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.headers.get('cache-control')).to.equal('public, max-age=3600');
      expect((res.json as OpenApiDocument).openapi).to.equal('3.1.0');

      const etag = res.headers.get('etag');
      expect(etag).to.be.a('string');
      const again = await get('/openapi.json', { headers: { 'If-None-Match': etag ?? '' } });
      expect(again.status).to.equal(304);
    });

    it('documents exactly the routes the routers register', async () => {
      const doc = (await get('/openapi.json')).json as OpenApiDocument;
      const registered = registeredRoutes([apiRouter(stack.deps)]);
      expect(registered).to.include.members(['GET /api/market/stats/{username}', 'GET /sentiment/{token}', 'GET /docs']);
      expect(documentedRoutes(doc)).to.deep.equal(registered);
    });

    it('names the error messages of the spec and the decisions', async () => {
      const text = (await get('/openapi.json')).body.toString('utf8');
      for (const message of [
        'Missing fields',
        'Invalid credentials',
        'Username not found in index',
        'Invalid token',
        'Token not found in index',
      ]) {
        expect(text, message).to.include(JSON.stringify(message).slice(1, -1));
      }
    });

    it('declares the Error schema and bearer security on the protected routes only', async () => {
      const doc = (await get('/openapi.json')).json as OpenApiDocument;
      expect((doc.components?.schemas?.Error as oas31.SchemaObject).required).to.deep.equal(['error']);
      expect(doc.components?.securitySchemes?.bearerAuth).to.include({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
      const secured = documentedRoutes(doc).filter((route) => {
        const [method = '', path = ''] = route.split(' ');
        const op = doc.paths?.[path]?.[method.toLowerCase() as (typeof HTTP_METHODS)[number]];
        // `{}` in a route's security means "or no credential": an API key is optional there (issue 21).
        return (op?.security?.length ?? 0) > 0 && !op?.security?.some((requirement) => Object.keys(requirement).length === 0);
      });
      expect(secured.filter((route) => !route.includes('/api/alerts'))).to.deep.equal([
        'GET /api/auth/me',
        'GET /api/export',
        'POST /api/admin/refresh',
      ]);
      // Every alert route is a user's own (a JWT or an API key acting as its user).
      expect(secured.filter((route) => route.includes('/api/alerts'))).to.have.length(
        documentedRoutes(doc).filter((route) => route.includes('/api/alerts')).length,
      );
    });
  });

  describe('GET /docs', () => {
    it('answers the reference page, its scripts from this origin only, under a tight CSP', async () => {
      const res = await get('/docs');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).to.include("script-src 'self'").and.include("default-src 'none'");
      const html = res.body.toString('utf8');
      expect(html).to.match(/^<!doctype html>/i);
      expect(html).to.include('<title>Market Signals API 0.1.0</title>');
      expect(html).not.to.match(/https?:\/\//i);
      const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1] ?? '');
      expect(scripts).to.deep.equal(['/docs/assets/scalar.js', '/docs/assets/init.js']);
      for (const script of scripts) {
        const asset = await get(script);
        expect(asset.status, script).to.equal(200);
        expect(asset.headers.get('content-type'), script).to.equal('text/javascript; charset=utf-8');
        expect(asset.body.length, script).to.be.greaterThan(50);
      }
      expect((await get('/docs/assets/other.js')).status).to.equal(404);
    });
  });
});
