/** Debian's Chromium as the browser tests drive it (playwright-core, no downloads), and where they leave screenshots. */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium, the artifacts folder made. */
export function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
