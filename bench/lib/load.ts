/**
 * The orchestrator's side of a load generator, and one measured round: load from the child,
 * CPU and RSS of the server's processes from /proc while it runs, and a hard failure on any
 * status other than the one expected (autocannon would count a 500 as throughput).
 */
import type { LoadResult, LoadSpec, ServerSide } from './types.js';
import { cpuMsOf, machineBusyMs, rssOf, startNode, withChildren, type NodeProcess } from './processes.js';

type Reply = { ready: true } | { id: number; result: LoadResult } | { id: number; error: string };

export class LoadGenerator {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();

  private constructor(private readonly proc: NodeProcess) {
    proc.child.on('message', (message: Reply) => {
      if (!('id' in message)) return;
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if ('error' in message) waiter?.reject(new Error(`load generator: ${message.error}`));
      else waiter?.resolve(message.result);
    });
    proc.died.catch((error: Error) => {
      for (const waiter of this.pending.values()) waiter.reject(error);
    });
  }

  static async start(name: string): Promise<LoadGenerator> {
    const proc = startNode(name, { script: 'bench/clients/load.ts', ipc: true });
    await Promise.race([proc.died, new Promise<void>((resolve) => proc.child.once('message', () => resolve()))]);
    return new LoadGenerator(proc);
  }

  get pid(): number {
    return this.proc.pid;
  }

  run(spec: LoadSpec): Promise<LoadResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.proc.child.send({ id, spec });
    });
  }

  close(): Promise<void> {
    return this.proc.stop(2000);
  }
}

/**
 * Samples the server's processes (and their cluster children) while `work` runs, and accounts
 * for the rest of the machine's CPU: a round where something foreign took a core shows it.
 * With `redisPid`, Redis's CPU in the round is counted apart (the naive design's reads cost it).
 */
export async function watchServer<T>(
  pid: number,
  work: Promise<T>,
  loadGenerators: readonly LoadGenerator[] = [],
  redisPid?: number,
): Promise<{ value: T; server: ServerSide }> {
  const pids = withChildren(pid);
  const loadPids = loadGenerators.map((g) => g.pid);
  const cpuBefore = pids.map(cpuMsOf);
  const loadBefore = loadPids.map(cpuMsOf);
  const redisBefore = redisPid === undefined ? 0 : cpuMsOf(redisPid);
  const machineBefore = machineBusyMs();
  const started = performance.now();
  let maxRssBytes = 0;
  const sample = () => {
    for (const p of pids) maxRssBytes = Math.max(maxRssBytes, rssOf(p));
  };
  sample();
  const timer = setInterval(sample, 200);
  try {
    const value = await work;
    sample();
    const cpuMs = pids.reduce((sum, p, i) => sum + cpuMsOf(p) - (cpuBefore[i] ?? 0), 0);
    const loadCpuMs = loadPids.reduce((sum, p, i) => sum + cpuMsOf(p) - (loadBefore[i] ?? 0), 0);
    const redisCpuMs = redisPid === undefined ? 0 : cpuMsOf(redisPid) - redisBefore;
    const otherCpuMs = Math.max(0, machineBusyMs() - machineBefore - cpuMs - loadCpuMs - redisCpuMs);
    return { value, server: { cpuMs, maxRssBytes, loadCpuMs, redisCpuMs, otherCpuMs, wallMs: performance.now() - started } };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Throws unless every response had `expected` status and nothing failed at the socket; and,
 * unless `allowNone` (background load whose only job is to keep the server busy), unless there
 * was at least one response.
 */
export function assertClean(label: string, result: LoadResult, expected: number | readonly number[], allowNone = false): void {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  const unexpected = Object.entries(result.byStatus).filter(([status]) => !allowed.includes(Number(status)));
  if (unexpected.length > 0 || result.errors > 0 || result.timeouts > 0 || (result.responses === 0 && !allowNone)) {
    const statuses = Object.entries(result.byStatus)
      .map(([status, n]) => `${status}x${n}`)
      .join(' ');
    throw new Error(
      `${label}: expected only ${allowed.join(' or ')}, got [${statuses}], ${result.errors} socket errors, ${result.timeouts} timeouts`,
    );
  }
}
