import type { JobQueue } from './port.js';

interface Lane {
  handler: (payload: Record<string, unknown>) => Promise<void>;
  concurrency: number;
  waiting: Array<{ jobId?: string; payload: Record<string, unknown> }>;
  active: number;
}

/**
 * In-process queue: jobs live in memory and run on this event loop. Whatever must survive a crash
 * is the caller's to persist (ingestion keeps runs in the database and re-enqueues them on start).
 */
export class EmbeddedQueue implements JobQueue {
  readonly engine = 'embedded' as const;
  private readonly lanes = new Map<string, Lane>();
  private readonly pending = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private started = false;
  private closed = false;

  constructor(private readonly onError: (err: unknown, name: string) => void = () => {}) {}

  async enqueue(name: string, payload: Record<string, unknown>, options: { jobId?: string; delayMs?: number } = {}) {
    if (this.closed) return;
    const key = options.jobId && `${name}:${options.jobId}`;
    if (key) {
      if (this.pending.has(key)) return;
      this.pending.add(key);
    }
    const push = () => {
      const lane = this.lanes.get(name);
      if (!lane) {
        if (key) this.pending.delete(key); // nobody consumes here; another process will
        return;
      }
      lane.waiting.push({ ...(key ? { jobId: key } : {}), payload });
      this.pump(lane);
    };
    if (options.delayMs) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        push();
      }, options.delayMs);
      this.timers.add(timer);
    } else push();
  }

  handle(name: string, handler: (payload: Record<string, unknown>) => Promise<void>, options: { concurrency?: number } = {}) {
    this.lanes.set(name, { handler, concurrency: Math.max(1, options.concurrency ?? 1), waiting: [], active: 0 });
  }

  async start() {
    this.started = true;
    for (const lane of this.lanes.values()) this.pump(lane);
  }

  private pump(lane: Lane) {
    if (!this.started || this.closed) return;
    while (lane.active < lane.concurrency && lane.waiting.length) {
      const job = lane.waiting.shift()!;
      lane.active++;
      const name = [...this.lanes.entries()].find(([, l]) => l === lane)![0];
      const task = lane
        .handler(job.payload)
        .catch((err) => this.onError(err, name))
        .finally(() => {
          lane.active--;
          if (job.jobId) this.pending.delete(job.jobId);
          this.running.delete(task);
          this.pump(lane);
        });
      this.running.add(task);
    }
  }

  async close() {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}
