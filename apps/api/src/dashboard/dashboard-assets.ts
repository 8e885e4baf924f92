/**
 * The dashboard's files, read once, served under one version (a hash of every file), so a URL names
 * one content for good and can be cached for a year.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TrendingWindow } from '../../../../shared/trending-windows.js';
import { Representation } from '../http/representation.js';

export interface Asset {
  representation: Representation;
  contentType: string;
}

export interface DashboardAssets {
  /** The hash every asset URL carries: `/assets/<version>/<file>`. */
  version: string;
  /** The page, its asset URLs and the configured windows filled in. */
  page: Representation;
  asset(version: string, file: string): Asset | undefined;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The third-party files the page loads, under the names it asks for, and where each package keeps it. */
const VENDOR = {
  'uplot.js': ['uplot', 'dist/uPlot.iife.min.js'],
  'uplot.css': ['uplot', 'dist/uPlot.min.css'],
  'openapi-fetch.js': ['openapi-fetch', 'dist/index.mjs'],
} as const;

const PUBLIC_DIR = fileURLToPath(new URL('./public/', import.meta.url));

/** A vendored file: from dist/vendor/ when built (as Scalar's bundle for /docs), else from node_modules. */
function vendorFile(name: keyof typeof VENDOR): Buffer {
  const built = fileURLToPath(new URL(`../../../../vendor/${name}`, import.meta.url));
  if (existsSync(built)) return readFileSync(built);
  const [pkg, path] = VENDOR[name];
  const require = createRequire(import.meta.url);
  return readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), path));
}

/** The files the browser loads: public/'s scripts and styles (not the type declarations and tsconfig that check them) and the vendored ones. */
function readFiles(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(PUBLIC_DIR).sort()) {
    if (name.endsWith('.d.ts') || !(extname(name) in CONTENT_TYPES)) continue;
    files.set(name, readFileSync(join(PUBLIC_DIR, name)));
  }
  for (const name of Object.keys(VENDOR) as (keyof typeof VENDOR)[]) files.set(name, vendorFile(name));
  return files;
}

/** @param windows TRENDING_WINDOWS: the board offers these (the page is the one place that tells it). */
export function loadDashboardAssets(windows: readonly TrendingWindow[]): DashboardAssets {
  const files = readFiles();
  const hash = createHash('sha256');
  for (const [name, body] of files) hash.update(name).update('\0').update(body).update('\0');
  const version = hash.digest('base64url').slice(0, 12);
  const assets = new Map<string, Asset>(
    [...files].map(([name, body]) => [name, { representation: new Representation(body), contentType: CONTENT_TYPES[extname(name)]! }]),
  );
  const html = readFileSync(join(PUBLIC_DIR, 'index.html'), 'utf8')
    .replaceAll('{{assets}}', `/assets/${version}`)
    .replaceAll('{{windows}}', windows.join(','));
  return {
    version,
    page: new Representation(Buffer.from(html)),
    asset: (asked, file) => (asked === version ? assets.get(file) : undefined),
  };
}
