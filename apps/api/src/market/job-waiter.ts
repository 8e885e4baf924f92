/**
 * Enqueue a job and wait for its end, boundedly. BullMQ's job.waitUntilFinished can hang and,
 * with Redis down, raise an unhandled rejection; instead one QueueEvents listener per queue
 * settles waiters, raced against a timer. The caller re-reads Redis either way.
 */
import type { Queue, QueueEvents } from 'bullmq';

export type JobOutcome = 'completed' | 'failed' | 'timeout';

export class JobWaiter {
  private readonly waiters = new Map<string, Set<(outcome: JobOutcome) => void>>();

  constructor(
    private readonly queue: Queue,
    events: QueueEvents,
  ) {
    events.on('completed', ({ jobId }) => this.settle(jobId, 'completed'));
    // Emitted once the last attempt has failed (retries go through `delayed`, not here).
    events.on('failed', ({ jobId }) => this.settle(jobId, 'failed'));
  }

  /**
   * The bound covers the enqueue too: an add written just as Redis went away is held by ioredis
   * and sent again on reconnect, so without it a request would hang for the whole outage.
   */
  async enqueueAndWait(enqueue: () => Promise<string>, timeoutMs: number): Promise<JobOutcome> {
    const deadline = Date.now() + timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, timeoutMs, 'timeout')));
    try {
      const jobId = await Promise.race([enqueue(), expired]);
      if (jobId === 'timeout') return 'timeout';
      return await this.waitFor(jobId, deadline - Date.now());
    } finally {
      clearTimeout(timer);
    }
  }

  private waitFor(jobId: string, timeoutMs: number): Promise<JobOutcome> {
    return new Promise<JobOutcome>((resolve) => {
      const done = (outcome: JobOutcome) => {
        clearTimeout(timer);
        this.waiters.get(jobId)?.delete(done);
        if (this.waiters.get(jobId)?.size === 0) this.waiters.delete(jobId);
        resolve(outcome);
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs), 'timeout');
      let set = this.waiters.get(jobId);
      if (!set) this.waiters.set(jobId, (set = new Set()));
      set.add(done);
      // The job may have ended before we listened; `unknown` means it already finished and was removed.
      this.queue.getJobState(jobId).then(
        (state) => {
          if (state === 'completed' || state === 'unknown') done('completed');
          else if (state === 'failed') done('failed');
        },
        () => {},
      );
    });
  }

  private settle(jobId: string, outcome: JobOutcome): void {
    for (const done of [...(this.waiters.get(jobId) ?? [])]) done(outcome);
  }
}
