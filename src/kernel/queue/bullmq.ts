import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { JobQueue } from './port.js';

/**
 * BullMQ on Redis: `serve` enqueues, `quarry worker` processes consume. Finished jobs are removed
 * at once so a job id can be enqueued again (a sweeper re-enqueues work Redis may have lost).
 */
export class BullMqQueue implements JobQueue {
  readonly engine = 'bullmq' as const;
  private readonly connection: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private readonly connections: Redis[] = [];
  private readonly handlers = new Map<string, { handler: (payload: Record<string, unknown>) => Promise<void>; concurrency: number }>();

  constructor(
    url: string,
    private readonly prefix = 'quarry',
    private readonly onError: (err: unknown, name: string) => void = () => {},
  ) {
    // BullMQ's blocking commands need unlimited retries per request.
    this.connection = new Redis(url, { maxRetriesPerRequest: null });
  }

  private queue(name: string) {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      this.queues.set(name, queue);
    }
    return queue;
  }

  async enqueue(name: string, payload: Record<string, unknown>, options: { jobId?: string; delayMs?: number } = {}) {
    await this.queue(name).add(name, payload, {
      ...(options.jobId ? { jobId: options.jobId } : {}),
      ...(options.delayMs ? { delay: options.delayMs } : {}),
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  handle(name: string, handler: (payload: Record<string, unknown>) => Promise<void>, options: { concurrency?: number } = {}) {
    this.handlers.set(name, { handler, concurrency: Math.max(1, options.concurrency ?? 1) });
  }

  async start() {
    for (const [name, { handler, concurrency }] of this.handlers) {
      const connection = this.connection.duplicate({ maxRetriesPerRequest: null });
      this.connections.push(connection);
      const worker = new Worker(name, async (job) => handler(job.data as Record<string, unknown>), {
        connection,
        prefix: this.prefix,
        concurrency,
      });
      worker.on('failed', (_job, err) => this.onError(err, name));
      worker.on('error', (err) => this.onError(err, name));
      this.workers.push(worker);
    }
  }

  async close() {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    for (const c of [...this.connections, this.connection]) c.disconnect();
  }
}
