/**
 * Background work. The embedded engine runs jobs in this process; at scale a Redis-backed engine
 * (BullMQ) hands them to `quarry worker` processes. Queues carry signals ("job X is ready"), not
 * state: callers keep the truth in the database. Job handlers must be idempotent: a job may run
 * again after a crash, or twice when a sweeper re-enqueues it.
 */
export interface JobQueue {
  /** Which engine this is, for logs and docs. */
  readonly engine: 'embedded' | 'bullmq';
  /** A job with the same `jobId` as one still waiting or running is ignored. */
  enqueue(name: string, payload: Record<string, unknown>, options?: { jobId?: string; delayMs?: number }): Promise<void>;
  /** Registers the handler for a job name; consumption begins with `start()`. */
  handle(name: string, handler: (payload: Record<string, unknown>) => Promise<void>, options?: { concurrency?: number }): void;
  /** Starts consuming registered names. Processes that only enqueue never call it. */
  start(): Promise<void>;
  /** Stops taking jobs and waits for the running ones to finish. */
  close(): Promise<void>;
}
