/**
 * The argon2 helper process, at the lowest CPU priority. On Linux a nice value is a thread's and
 * is inherited, so it is lowered for every thread before anything can start libuv's pool (where
 * argon2 runs): nothing else is imported until then.
 */
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/** 19 of 0..19: the kernel weighs a nice-0 thread ~70 times more; argon2 still gets idle CPU. */
export const HELPER_NICE = 19;

function lowerPriority(): void {
  let tasks: string[] = [];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    // Not Linux: the priority is per process there.
  }
  if (tasks.length === 0) return setPriority(HELPER_NICE);
  for (const tid of tasks) {
    try {
      setPriority(Number(tid), HELPER_NICE);
    } catch {
      // A thread that ended meanwhile.
    }
  }
}

export interface HelperRequest {
  id: number;
  op: 'hash' | 'verify';
  password: string;
  digest?: string;
  /** argon2's options for `hash` (numbers only, `type` included). */
  options?: Record<string, number>;
}

export type HelperReply = { id: number; ok: true; value: string | boolean } | { id: number; ok: false; error: string };

async function serve(): Promise<void> {
  const { default: argon2 } = await import('argon2');
  // A parent that is already gone (it exited while we started) is no error: leave quietly.
  const reply = (message: HelperReply) => process.send?.(message, undefined, undefined, (error) => error && process.exit(0));
  process.on('message', (request: HelperRequest) => {
    const work =
      request.op === 'hash'
        ? argon2.hash(request.password, request.options)
        : // A digest argon2 cannot read is a failed verification, not a helper failure.
          argon2.verify(request.digest ?? '', request.password).catch(() => false);
    work.then(
      (value) => reply({ id: request.id, ok: true, value }),
      (error: unknown) => reply({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  // The API owns the shutdown: its SIGTERM drains requests that may still need a verification,
  // so the helper ignores the signal and leaves when its parent's channel closes (exit or kill).
  process.on('SIGTERM', () => {});
  process.on('SIGINT', () => {});
  process.on('disconnect', () => process.exit(0));
  reply({ id: 0, ok: true, value: 'ready' });
}

if (process.send) {
  lowerPriority();
  await serve();
}
