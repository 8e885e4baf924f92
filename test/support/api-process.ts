/** The real web entry point in an OS process of its own (tsx, as `npm test` runs TypeScript), as a dyno runs it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './redis-server.js';
import { eventually } from './stack.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ApiProcess {
  name: string;
  url: string;
  child: ChildProcess;
  stderr(): string;
}

/**
 * Starts apps/api/src/main.ts with `env` and resolves once /readyz answers 200. `nodeArgs`: what
 * node runs instead, e.g. the built `dist/apps/api/src/main.js` as the Procfile does.
 */
export async function startApiProcess(
  name: string,
  env: Record<string, string>,
  nodeArgs = ['--import', 'tsx', 'apps/api/src/main.ts'],
): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), WEB_CONCURRENCY: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const api = { name, url: `http://127.0.0.1:${port}`, child, stderr: () => stderr };
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) => reject(new Error(`${name} exited (${signal ?? code}): ${stderr}`))),
  );
  exited.catch(() => {});
  await Promise.race([
    exited,
    eventually(async () => ((await fetch(`${api.url}/readyz`)).status === 200 ? true : undefined), 30_000, `${name} ready`),
  ]);
  return api;
}

/** SIGTERM, SIGKILL after 5 s; resolves once it has exited. */
export async function stopApiProcess(api: ApiProcess): Promise<void> {
  if (api.child.exitCode !== null || api.child.signalCode !== null) return;
  const exited = new Promise((resolve) => api.child.once('exit', resolve));
  api.child.kill('SIGTERM');
  const timer = setTimeout(() => api.child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
