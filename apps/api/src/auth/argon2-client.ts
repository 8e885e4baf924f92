/**
 * The API's side of the argon2 helper process: forked on first use, restarted on the next call if
 * it dies. The IPC channel holds the event loop open only while a call is pending, so scripts still exit.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { HelperReply, HelperRequest } from './argon2-helper.js';

/** The helper's file beside this one: .ts under the tests' TypeScript loader, .js when built. */
const HELPER_PATH = fileURLToPath(new URL(`./argon2-helper${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

/** Node flags the helper inherits: the TypeScript loader and memory flags yes, debugger and profiler no. */
const execArgv = () => process.execArgv.filter((flag) => !/^--(inspect|cpu-prof|heap-prof|prof)/.test(flag));

interface Pending {
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

export class Argon2Helper {
  private child: ChildProcess | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  hash(password: string, options: Readonly<Record<string, number>>): Promise<string> {
    return this.call({ op: 'hash', password, options: { ...options } }) as Promise<string>;
  }

  verify(digest: string, password: string): Promise<boolean> {
    return this.call({ op: 'verify', digest, password }) as Promise<boolean>;
  }

  /** The helper's pid (tests kill it), starting it if needed. */
  pid(): number | undefined {
    return this.start().pid;
  }

  /** Stops the helper now; a later call starts another. */
  stop(): void {
    this.child?.kill('SIGKILL');
  }

  private call(request: Omit<HelperRequest, 'id'>): Promise<string | boolean> {
    const child = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) child.channel?.ref();
      child.send({ id, ...request } satisfies HelperRequest, (error) => {
        if (error) this.settle(id)?.reject(new Error('argon2 helper unreachable', { cause: error }));
      });
    });
  }

  private settle(id: number): Pending | undefined {
    const pending = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0) this.child?.channel?.unref();
    return pending;
  }

  private start(): ChildProcess {
    if (this.child) return this.child;
    const child = fork(HELPER_PATH, [], { execArgv: execArgv(), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child = child;
    child.unref();
    child.channel?.unref();
    child.on('message', (reply: HelperReply) => {
      if (reply.id === 0) return; // "ready"
      const pending = this.settle(reply.id);
      if (reply.ok) pending?.resolve(reply.value);
      else pending?.reject(new Error(`argon2: ${reply.error}`));
    });
    child.on('error', () => {}); // followed by 'exit' when the process is gone
    child.once('exit', () => {
      if (this.child === child) this.child = undefined;
      const failed = [...this.pending.values()];
      this.pending.clear();
      for (const { reject } of failed) reject(new Error('argon2 helper exited'));
    });
    return child;
  }
}
