/**
 * The fault suite (`npm run test:faults`) in two lanes at once, each a mocha process running its
 * files one after another: the faults of Redis itself (a Redis, Sentinel or Cluster killed, failed
 * over or flushed) in one, every other fault file (deploys, crashes, hostile clients, the upstream,
 * Ctrl-C) in the other. Run serially the suite took 375 s of wall for 115 s of CPU: each fault
 * mostly waits on processes, timers and recovery, so a second lane costs the machine little while
 * halving the wait, and no two failovers ever share it.
 *
 * Each lane hands its rows of the fault table to this runner (FAULT_ROWS, a file per lane), which
 * writes the whole table to test/artifacts/faults.md and prints it, as a single mocha run does.
 * Usage: tsx dev/fault-lanes.ts [--only=<lane name>]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, globSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { table, type FaultRow } from './fault-table.js';

const REDIS_FAULTS = /\/(redis|sentinel|cluster)\.fault\.ts$/;
const files = globSync('test/faults/*.fault.ts').sort();
const lanes = [
  { name: 'redis', files: files.filter((file) => REDIS_FAULTS.test(file)) },
  { name: 'processes', files: files.filter((file) => !REDIS_FAULTS.test(file)) },
];
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const chosen = lanes.filter((lane) => lane.files.length > 0 && (only === undefined || lane.name === only));
if (chosen.length === 0) {
  console.error(`fault-lanes: no lane ${only ?? ''} (lanes: ${lanes.map((lane) => lane.name).join(', ')})`);
  process.exit(2);
}

// One build before both lanes start, so neither rewrites dist/ while the other runs from it.
if (process.env.MS_TEST_BUILT !== '1') {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const rowsDir = mkdtempSync(join(tmpdir(), 'fault-rows-'));
const started = Date.now();
const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

interface LaneResult {
  name: string;
  code: number;
  rows: FaultRow[];
}

function runLane(lane: { name: string; files: string[] }): Promise<LaneResult> {
  const rowsFile = join(rowsDir, `${lane.name}.json`);
  const began = Date.now();
  return new Promise((done) => {
    const child = spawn('node_modules/.bin/mocha', ['--config', '.mocharc.faults.json', ...lane.files], {
      env: { ...process.env, MS_TEST_BUILT: '1', FAULT_ROWS: rowsFile, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A lane's output whole, when it ends: two lanes' lines interleaved would be unreadable.
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => {
      console.log(`\n===== fault lane ${lane.name} (${lane.files.join(' ')}): exit ${code}, ${seconds(Date.now() - began)}`);
      process.stdout.write(output);
      const rows = existsSync(rowsFile) ? (JSON.parse(readFileSync(rowsFile, 'utf8')) as FaultRow[]) : [];
      done({ name: lane.name, code: code ?? 1, rows });
    });
  });
}

console.log(
  `fault-lanes: ${chosen.map((lane) => `${lane.name} (${lane.files.length} files)`).join(' and ')} at once; each lane's output when it ends`,
);
const results = await Promise.all(chosen.map(runLane));
const rows = results.flatMap((result) => result.rows);
if (rows.length > 0) {
  mkdirSync('test/artifacts', { recursive: true });
  writeFileSync('test/artifacts/faults.md', `${table(rows)}\n`);
  console.log(`\n${table(rows)}`);
}
const failed = results.filter((result) => result.code !== 0).map((result) => result.name);
console.log(
  `\nfault-lanes: ${chosen.length} lane(s) in ${seconds(Date.now() - started)}${failed.length > 0 ? `; FAILED: ${failed.join(', ')}` : ', all passed'}`,
);
process.exit(failed.length === 0 ? 0 : 1);
