/*
 * The Node check every entry point runs before anything else (`node scripts/node-version.js && ...`
 * in package.json's scripts, `node --import ./scripts/node-version.js` in the Procfile): on a Node
 * older than package.json's engines.node, one line and exit 1, instead of Map.groupBy TypeErrors on
 * every request or a native addon's segfault. Plain JavaScript importing only node: builtins, so it
 * parses and runs on any Node, whatever Node built node_modules.
 */
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const floor = /^>=\s*(\d+)\.(\d+)/.exec(manifest.engines.node);
if (!floor) throw new Error(`package.json engines.node is not ">=MAJOR.MINOR": ${manifest.engines.node}`);
const [major, minor] = process.versions.node.split('.').map(Number);
const wanted = [Number(floor[1]), Number(floor[2])];
if (major < wanted[0] || (major === wanted[0] && minor < wanted[1])) {
  process.stderr.write(
    `market-signals needs Node 24 (at least ${wanted.join('.')}); this is Node ${process.version} (${process.execPath}). ` +
      `Get Node 24: npm install -g --prefix "$HOME/.node24" node@24 && export PATH="$HOME/.node24/bin:$PATH", then npm ci again under it.\n`,
  );
  process.exit(1);
}
