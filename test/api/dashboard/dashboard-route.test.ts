/**
 * GET / and its assets over HTTP: the page under a strict CSP, its files under one versioned
 * path with year-long caching, ETags and compression, and nothing else served from there.
 */
import { expect } from 'chai';
import { brotliDecompressSync } from 'node:zlib';
import { http, rawGet } from '../../support/http.js';
import { startStack, type Stack } from '../../support/stack.js';

describe('GET / (the dashboard) and /assets/<version>/<file>', () => {
  let stack: Stack;
  let html: string;
  const get = (path: string, init?: RequestInit) => http(`${stack.apiUrl}${path}`, init);

  before(async () => {
    stack = await startStack({ workers: 0 });
    html = (await get('/')).body.toString('utf8');
  });
  after(() => stack.close());

  const assetUrls = () => [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);

  it('answers an HTML page under a CSP that allows this origin only and no inline script or style', async () => {
    const res = await get('/');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp)
      .to.include("default-src 'none'")
      .and.include("script-src 'self'")
      .and.include("style-src 'self'")
      .and.include("connect-src 'self'");
    expect(csp).not.to.include('unsafe-inline');
    expect(html).not.to.match(/<script>|<style|style="/);
    expect(html).to.include('href="/docs"');
    // The board's window menu offers the configured windows (TRENDING_WINDOWS, default only 24h): filled in, no placeholder left.
    expect(html).to.include('data-windows="24h"').and.not.include('{{');
  });

  it('is revalidated on every visit (max-age 0 with an ETag, 304 when unchanged), so a deploy shows at once', async () => {
    const res = await get('/');
    expect(res.headers.get('cache-control')).to.equal('public, max-age=0');
    const again = await get('/', { headers: { 'If-None-Match': res.headers.get('etag') ?? '' } });
    expect(again.status).to.equal(304);
  });

  it('links its scripts and styles under one version, each immutable for a year, with an ETag and br', async () => {
    const urls = assetUrls();
    expect(urls.map((url) => url.split('/').pop())).to.have.members(['uplot.css', 'dashboard.css', 'uplot.js', 'app.js']);
    expect(new Set(urls.map((url) => url.split('/')[2])).size).to.equal(1);
    for (const url of urls) {
      const res = await rawGet(`${stack.apiUrl}${url}`, { 'Accept-Encoding': 'br' });
      expect(res.status, url).to.equal(200);
      expect(res.headers['content-type'], url).to.match(url.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      expect(res.headers['cache-control'], url).to.equal('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding'], url).to.equal('br');
      expect(brotliDecompressSync(res.body).length, url).to.be.greaterThan(res.body.length);
      const again = await rawGet(`${stack.apiUrl}${url}`, { 'If-None-Match': String(res.headers.etag) });
      expect(again.status, url).to.equal(304);
    }
  });

  it('serves the modules the entry imports from the same versioned folder', async () => {
    const folder = assetUrls()[0]!.split('/').slice(0, 3).join('/');
    for (const file of ['api.js', 'board.js', 'news.js', 'stats.js', 'token-view.js', 'format.js', 'openapi-fetch.js']) {
      expect((await get(`${folder}/${file}`)).status, file).to.equal(200);
    }
  });

  it('answers 404 {error} for another version, an unknown file, and the files that only check the scripts', async () => {
    const folder = assetUrls()[0]!.split('/').slice(0, 3).join('/');
    for (const path of [
      '/assets/000000000000/app.js',
      `${folder}/nope.js`,
      `${folder}/tsconfig.json`,
      `${folder}/openapi-fetch.d.ts`,
      `${folder}/index.html`,
    ]) {
      const res = await get(path);
      expect(res.status, path).to.equal(404);
      expect(res.json, path).to.deep.equal({ error: 'Not found' });
    }
  });
});
