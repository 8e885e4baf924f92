/**
 * The fault suite's table: one row per fault, printed when the run ends and written to
 * test/artifacts/faults.md, for the closing note and the README's "Operating" section.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './procfile.js';

export interface FaultRow {
  fault: string;
  /** Requests the clients sent while the fault lasted (and until recovery). */
  requests: number;
  /** Errors clients saw: 5xx answers and requests lost on a socket. */
  errors: number;
  /** How long service was degraded, in seconds; what degraded in `note`. */
  degradedSeconds: number;
  usersLost: number;
  jobsLost: number;
  note: string;
}

const rows: FaultRow[] = [];

export function record(row: FaultRow): void {
  rows.push(row);
}

export function table(): string {
  const lines = [
    '| Fault | Requests during it | Errors clients saw | Degraded (s) | Users lost | Acknowledged jobs lost | What clients saw |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) => `| ${r.fault} | ${r.requests} | ${r.errors} | ${r.degradedSeconds.toFixed(1)} | ${r.usersLost} | ${r.jobsLost} | ${r.note} |`,
    ),
  ];
  return lines.join('\n');
}

after(function () {
  if (rows.length === 0) return;
  const text = table();
  const dir = join(ROOT, 'test', 'artifacts');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'faults.md'), `${text}\n`);
  process.stdout.write(`\n${text}\n`);
});
