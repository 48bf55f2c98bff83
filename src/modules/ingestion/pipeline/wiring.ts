import type { AppContext } from '../../../kernel/context.js';
import { BullMqQueue } from '../../../kernel/queue/bullmq.js';
import { EmbeddedQueue } from '../../../kernel/queue/embedded.js';
import type { JobQueue } from '../../../kernel/queue/port.js';
import type { SourceService } from '../../sources/service.js';
import type { IngestionSettings } from '../config.js';
import type { RunRepository } from '../run-repository.js';
import type { IngestionService } from '../service.js';
import type { IndexService } from '../index/service.js';
import { RunEngine } from './engine.js';
import type { PipelineParts } from './parts.js';
import { createPipelineParts } from './real-parts.js';

/**
 * Picks the queue engine and decides whether this process executes runs:
 * - no REDIS_URL: embedded queue; `serve` and `worker` both execute (processes sharing one
 *   database find each other's runs through the sweeper and the atomic claim);
 * - REDIS_URL: BullMQ; `worker` executes, `serve` only enqueues unless `workInServe` is set.
 */
export function createIngestionRuntime(ctx: AppContext, deps: { repo: RunRepository; sources: SourceService; service: IngestionService; index: IndexService }) {
  const settings = ctx.config.ingestion as IngestionSettings;
  let built: PipelineParts | undefined;
  const parts = () => (built ??= createPipelineParts(ctx, settings, deps.index));
  const onError = (err: unknown, name: string) => ctx.log.error({ err, job: name }, 'job failed');
  const queue: JobQueue = ctx.config.redisUrl ? new BullMqQueue(ctx.config.redisUrl, settings.queuePrefix, onError) : new EmbeddedQueue(onError);
  const engine = new RunEngine({ ...deps, parts, queue, settings, log: ctx.log, finished: (run) => deps.service.emitFinished(run) });
  deps.service.attach(engine);
  ctx.onClose(async () => {
    await engine.close();
    await built?.close?.();
  });
  const executes = queue.engine === 'embedded' || ctx.role === 'worker' || settings.workInServe;
  return {
    engine,
    queue,
    async start() {
      if (ctx.role === 'cli' || !executes) return;
      await engine.startWorking();
      ctx.log.debug({ engine: queue.engine, owner: engine.owner }, 'ingestion workers started');
    },
  };
}
