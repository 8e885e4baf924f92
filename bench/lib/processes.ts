/**
 * Child processes of the benchmark: every server under test and every load generator runs in
 * a process of its own, as plain JavaScript compiled for the run (as production runs dist/:
 * no TypeScript loader in the measured process, whose memory it would inflate by ~25 MB), with
 * no wrapper process, so the pid we hold is the server's own; plus what /proc says about their
 * CPU and memory.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

let buildDir: string | undefined;

/**
 * Compiles apps/, shared/ and bench/ of `root` into `dir`/out (emit only: type errors are the
 * typecheck's business, not the benchmark's) and returns that directory. The compiled tree
 * resolves packages from this repository's node_modules.
 */
function compileInto(dir: string, root = ROOT): string {
  const tsconfig = join(dir, 'tsconfig.bench.json');
  const out = join(dir, 'out');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: join(root, 'tsconfig.json'),
      compilerOptions: {
        outDir: out,
        rootDir: root,
        noEmit: false,
        noCheck: true,
        sourceMap: false,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules', '@types')],
      },
      include: [join(root, 'apps'), join(root, 'shared'), join(root, 'bench')],
    }),
  );
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', tsconfig], { encoding: 'utf8' });
  if (tsc.status !== 0) throw new Error(`could not compile ${root} for the benchmark:\n${tsc.stdout}${tsc.stderr}`);
  // The compiled tree resolves packages from the repository and stays an ES module scope.
  symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  // shared/redis-scripts.ts reads its Lua beside the compiled module, as `npm run build` copies it.
  cpSync(join(root, 'shared', 'lua'), join(out, 'shared', 'lua'), { recursive: true });
  // The dashboard reads its page and scripts beside its compiled module, as `npm run build` copies them (a baseline revision may have none).
  const dashboard = join('apps', 'api', 'src', 'dashboard', 'public');
  if (existsSync(join(root, dashboard))) cpSync(join(root, dashboard), join(out, dashboard), { recursive: true });
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  return out;
}

/** Compiles this repository into `dir` and makes every later startNode run the compiled files. */
export function buildInto(dir: string): void {
  buildDir = compileInto(dir);
}

/**
 * The code of another git revision (`--baseline`), compiled into `dir`: the same API measured
 * before a change, in the same run as after it. It uses this checkout's node_modules; `overlay`
 * lists files of this checkout (relative paths) copied over the revision's before compiling.
 */
export function buildRevision(revision: string, dir: string, overlay: readonly string[] = []): string {
  const source = join(dir, 'src');
  mkdirSync(source, { recursive: true });
  const archive = spawnSync('git', ['-C', ROOT, 'archive', '--format=tar', revision], { maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${revision}: ${archive.stderr.toString()}`);
  const tar = spawnSync('tar', ['-x', '-C', source], { input: archive.stdout });
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr.toString()}`);
  // A bench target newer than the revision (it measures the revision's code, so it must run there).
  for (const path of overlay) cpSync(join(ROOT, path), join(source, path));
  return compileInto(dir, source);
}

export interface NodeProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
  /** Rejects as soon as the process exits before stop() was called. */
  readonly died: Promise<never>;
}

export interface StartOptions {
  /** TypeScript entry point, relative to the repository root. */
  script: string;
  args?: string[];
  /** Added to (or, where undefined, removed from) the orchestrator's environment. */
  env?: Record<string, string | undefined>;
  /** Extra node flags (e.g. --cpu-prof). */
  nodeFlags?: string[];
  /** Where stdout goes: a file path, 'pipe', or 'ignore'. stderr goes to `stderrFile` or is inherited. */
  stdout?: string;
  stderrFile?: string;
  /** Open an IPC channel (for the load generators). */
  ipc?: boolean;
  /** Run the files compiled there instead of this checkout's (a --baseline revision). */
  buildDir?: string;
}

const running = new Set<ChildProcess>();
// A crashed orchestrator must not leave servers behind holding ports.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function startNode(name: string, options: StartOptions): NodeProcess {
  const stdoutTarget = options.stdout ?? 'ignore';
  const stdout = stdoutTarget === 'pipe' || stdoutTarget === 'ignore' ? stdoutTarget : openSync(stdoutTarget, 'a');
  const stderr = options.stderrFile ? openSync(options.stderrFile, 'a') : 'inherit';
  const stdio: ('ignore' | 'pipe' | 'inherit' | 'ipc' | number)[] = ['ignore', stdout, stderr];
  if (options.ipc) stdio.push('ipc');
  const compiled = options.buildDir ?? buildDir;
  const entry = compiled ? [join(compiled, options.script.replace(/\.ts$/, '.js'))] : ['--import', 'tsx', options.script];
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...entry, ...(options.args ?? [])], {
    cwd: ROOT,
    env,
    stdio,
  });
  if (child.pid === undefined) throw new Error(`${name}: could not start ${options.script}`);
  running.add(child);
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const died = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      if (!stopping) reject(new Error(`${name} exited unexpectedly (${signal ?? `code ${code}`})`));
    });
  });
  died.catch(() => {});
  return {
    name,
    child,
    pid: child.pid,
    died,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      stopping = true;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves with the first stdout line of a child started with stdout 'pipe'. */
export function firstLine(proc: NodeProcess): Promise<string> {
  return Promise.race([
    proc.died,
    new Promise<string>((resolve) => {
      let buffered = '';
      proc.child.stdout?.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const end = buffered.indexOf('\n');
        if (end >= 0) resolve(buffered.slice(0, end));
      });
    }),
  ]);
}

/** Everything a child wrote on stdout, once it has exited with code 0. */
export function allOutput(proc: NodeProcess): Promise<string> {
  let buffered = '';
  proc.child.stdout?.on('data', (chunk: Buffer) => (buffered += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    proc.child.once('exit', (code, signal) =>
      code === 0 ? resolve(buffered) : reject(new Error(`${proc.name} failed (${signal ?? `code ${code}`})`)),
    );
  });
}

/**
 * Polls `url` until it answers 200 (or the process dies, or `timeoutMs` passes). Generous: on
 * two cores other work has saturated, a cluster's start-up took over 30 s.
 */
export async function waitForHttp(proc: NodeProcess, url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(url).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${proc.name}: ${url} did not answer 200 within ${timeoutMs} ms`);
    await Promise.race([proc.died, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** User + system CPU time of a process, in ms (from /proc/<pid>/stat). */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may itself contain spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** CPU time the whole machine spent busy (every core, every process, the kernel), in ms. */
export function machineBusyMs(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  // cpu  user nice system idle iowait irq softirq steal ...
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  return ((user + nice + system + irq + softirq + steal) * 1000) / CLOCK_TICKS;
}

/** Resident set size in bytes (VmRSS of /proc/<pid>/status); 0 when the process is gone. */
export function rssOf(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** A process and its direct children (the cluster's API processes under its primary). */
export function withChildren(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return [pid, ...(children ? children.split(' ').map(Number) : [])];
  } catch {
    return [pid];
  }
}

/**
 * Pins a process (all its threads) to the given cores with taskset, or returns false where that
 * cannot be done (one core, no taskset). On two cores, a server and its load generator that the
 * scheduler moves between cores charge each round a different share of cache misses and
 * migrations: the same build measured 1.45x raw node:http in one run and 1.70x in the next
 * while floating, and within 0.05x between runs pinned.
 */
export function pin(pid: number, cores: string): boolean {
  const result = spawnSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { encoding: 'utf8' });
  return result.status === 0;
}

/** Every core of the machine, as taskset writes a list ("0-1"). */
export function allCores(): string {
  return `0-${cpus().length - 1}`;
}
