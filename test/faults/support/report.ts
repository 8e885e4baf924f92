/**
 * The fault suite's table: one row per fault, printed when the run ends and written to
 * test/artifacts/faults.md, for the closing note and the README's "Operating" section. Run in
 * lanes (dev/fault-lanes.ts, `npm run test:faults`), a lane hands its rows to the runner instead
 * (FAULT_ROWS, a file of its own), which writes the whole table.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { table, type FaultRow } from '../../../dev/fault-table.js';
import { ROOT } from './procfile.js';

const rows: FaultRow[] = [];

export function record(row: FaultRow): void {
  rows.push(row);
}

after(function () {
  if (rows.length === 0) return;
  const lane = process.env.FAULT_ROWS;
  if (lane) {
    writeFileSync(lane, JSON.stringify(rows));
    return;
  }
  const text = table(rows);
  const dir = join(ROOT, 'test', 'artifacts');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'faults.md'), `${text}\n`);
  process.stdout.write(`\n${text}\n`);
});
