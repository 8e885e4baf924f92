/**
 * GET /docs in a real browser: headless Chromium (Debian's `chromium`, installed by .ci/run)
 * driven by playwright-core. The page must show every operation of the document, its try-it
 * console must call trending on the same origin and show the 200 and its data, with no console
 * error and no request leaving 127.0.0.1. Screenshots go to test/artifacts/ (git-ignored).
 */
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchChromium } from '../support/chromium.js';
import type { oas31 } from 'zod-openapi';
import { http } from '../support/http.js';
import { eventually, startStack, type Stack } from '../support/stack.js';

describe('GET /docs in headless Chromium (Scalar, served offline)', function () {
  this.timeout(120_000);
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let document: oas31.OpenAPIObject;
  const consoleErrors: string[] = [];
  const leftLoopback: string[] = [];
  const sameOrigin: string[] = [];

  before(async () => {
    stack = await startStack({ workers: 1 });
    await eventually(async () => ((await http(`${stack.apiUrl}/readyz`)).status === 200 ? true : undefined), 30_000, 'ready');
    document = (await http(`${stack.apiUrl}/openapi.json`)).json as oas31.OpenAPIObject;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    // Anything not for the API under test is recorded and refused, so the page cannot lean on it.
    await page.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.hostname === '127.0.0.1') {
        sameOrigin.push(`${route.request().method()} ${url.pathname}`);
        return route.continue();
      }
      leftLoopback.push(url.href);
      return route.abort();
    });
    await page.goto(`${stack.apiUrl}/docs`);
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('shows every operation of the document, with its method', async () => {
    const operations = Object.values(document.paths ?? {}).flatMap((item) =>
      (['get', 'post'] as const).flatMap((method) => (item[method] ? [{ method, summary: item[method].summary ?? '' }] : [])),
    );
    // 14, the two history routes and the stream of docs/decisions.md#d11, GET /api/auth/usage, POST /mcp,
    // the two mindshare reads (docs/decisions.md#d20), the alerts' seven GET and POST operations, the two
    // callers reads (#callers), the two stories reads (#d23), the pair list and the export.
    expect(operations).to.have.length(34);
    for (const { method, summary } of operations) {
      const entry = page.getByText(summary, { exact: true }).first();
      await entry.waitFor({ timeout: 15_000 });
      expect(
        await page.getByRole('link', { name: new RegExp(`^${escapeRegExp(summary)}\\s*HTTP METHOD:\\s*${method}$`, 'i') }).count(),
        summary,
      ).to.be.greaterThan(0);
    }
    // Request samples: curl (Shell), JavaScript (Node.js) and Python, with this origin in them.
    for (const client of ['Shell', 'Node.js', 'Python']) await page.getByRole('tab', { name: client }).first().waitFor({ timeout: 5_000 });
    const text = await page.locator('body').innerText();
    expect(text).to.include(`curl ${stack.apiUrl}/api/auth/login`);
    await page.screenshot({ path: join(ARTIFACTS, 'docs.png') });
  });

  it('runs the try-it call of trending on this origin and shows the 200 and its data', async () => {
    await page.getByText('Top trending tokens', { exact: true }).first().click();
    const tryIt = page.locator('button', { hasText: /\(get \/api\/market\/trending\)$/ });
    await tryIt.first().click();
    await page.getByRole('button', { name: /^Send get request to \S*\/api\/market\/trending$/ }).click();
    await page.getByText('200 OK').first().waitFor({ timeout: 15_000 });
    const trending = (await http(`${stack.apiUrl}/api/market/trending`)).json as { data: { token: string; name: string }[] };
    const first = trending.data[0];
    expect(first, 'trending has data').not.to.equal(undefined);
    await page
      .getByText(`"${first?.name ?? ''}"`)
      .first()
      .waitFor({ timeout: 5_000 });
    expect(sameOrigin).to.include('GET /api/market/trending');
    await page.screenshot({ path: join(ARTIFACTS, 'docs-try-it.png') });
  });

  it('logged no console error and sent no request beyond 127.0.0.1', () => {
    expect(consoleErrors).to.deep.equal([]);
    expect(leftLoopback).to.deep.equal([]);
    expect(sameOrigin).to.include.members(['GET /docs', 'GET /docs/assets/scalar.js', 'GET /docs/assets/init.js', 'GET /openapi.json']);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
