import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PreparedPage } from './parts.js';
import type { PrepareOptions, PrepareTask } from './prepare.js';

interface Pending {
  resolve: (page: PreparedPage) => void;
  reject: (err: Error) => void;
}

/**
 * Parsing a 60 KB page costs tens of milliseconds of CPU; on the main thread it starves the crawl
 * and the database writes. This pool runs `prepare` on worker threads, least-loaded first.
 */
export class PreparePool {
  private readonly workers: Array<{ worker: Worker; pending: Map<number, Pending> }> = [];
  private nextId = 0;

  static threadsFor(setting: number) {
    return setting >= 0 ? setting : Math.max(1, availableParallelism());
  }

  constructor(threads: number, options: PrepareOptions) {
    // Under tsx (development, tests) the sources are .ts: the thread registers tsx before loading.
    const ts = import.meta.url.endsWith('.ts');
    const url = new URL(ts ? './prepare-worker.ts' : './prepare-worker.js', import.meta.url);
    const entry = ts ? tsBootstrap(url) : url;
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(entry, { workerData: options, eval: ts });
      const slot = { worker, pending: new Map<number, Pending>() };
      worker.on('message', (m: { id: number; result?: PreparedPage; error?: string }) => {
        const p = slot.pending.get(m.id);
        if (!p) return;
        slot.pending.delete(m.id);
        if (!slot.pending.size) worker.unref(); // idle threads never hold the process open
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.result!);
      });
      const failAll = (err: Error) => {
        for (const p of slot.pending.values()) p.reject(err);
        slot.pending.clear();
      };
      worker.on('error', failAll);
      worker.on('exit', () => failAll(new Error('parse thread exited')));
      worker.unref();
      this.workers.push(slot);
    }
  }

  run(task: PrepareTask): Promise<PreparedPage> {
    const slot = this.workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.ref();
      slot.worker.postMessage({ id, task });
    });
  }

  async close() {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}

function tsBootstrap(url: URL): string {
  const api = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  return `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`;
}
