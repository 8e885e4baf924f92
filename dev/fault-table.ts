/** A row of the fault suite's table (test/faults), and the table as markdown (test/artifacts/faults.md). */
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

export function table(rows: readonly FaultRow[]): string {
  const lines = [
    '| Fault | Requests during it | Errors clients saw | Degraded (s) | Users lost | Acknowledged jobs lost | What clients saw |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) => `| ${r.fault} | ${r.requests} | ${r.errors} | ${r.degradedSeconds.toFixed(1)} | ${r.usersLost} | ${r.jobsLost} | ${r.note} |`,
    ),
  ];
  return lines.join('\n');
}
