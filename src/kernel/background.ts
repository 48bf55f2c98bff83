import type { FastifyBaseLogger } from 'fastify';

/**
 * Fire-and-forget work that must still finish (or be awaited) before shutdown, such as purging
 * soft-deleted rows. Anything lost to a crash is picked up by the next start's sweep.
 */
export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  run(name: string, task: () => Promise<unknown>) {
    const promise = (async () => {
      await new Promise((r) => setImmediate(r));
      await task();
    })()
      .catch((err) => this.log.error({ err, task: name }, 'background task failed'))
      .finally(() => this.pending.delete(promise));
    this.pending.add(promise);
  }

  async drain() {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}
