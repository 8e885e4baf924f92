/** Debian's Chromium as the browser tests drive it (dev/chromium.ts), and where they leave screenshots. */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchHeadlessChromium } from '../../dev/chromium.js';

export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

/** A headless Chromium, the artifacts folder made. */
export function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return launchHeadlessChromium();
}
