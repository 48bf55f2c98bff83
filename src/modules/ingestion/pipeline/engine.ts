import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { nowIso } from '../../../kernel/db/ids.js';
import type { JobQueue } from '../../../kernel/queue/port.js';
import type { SourceService } from '../../sources/service.js';
import type { IngestionSettings } from '../config.js';
import type { RunRepository } from '../run-repository.js';
import type { Run } from '../schemas.js';
import type { PipelineParts } from './parts.js';
import { runPipeline, type RunOutcome } from './run-pipeline.js';
import { ErrorLog, RunStats } from './stats.js';

export const RUN_JOB = 'ingestion.run';

/**
 * Runs ingestion runs. The database is the truth: a queue job only says "run X may be ready"; the
 * worker takes the run with an atomic claim, keeps it with a heartbeat-renewed lease, and ends it
 * with a guarded update. A worker that dies loses its lease and a sweeper hands the run out again.
 */
export class RunEngine {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly active = new Map<string, AbortController>();
  private sweeper?: NodeJS.Timeout;
  private closing = false;

  constructor(
    private readonly deps: {
      repo: RunRepository;
      queue: JobQueue;
      sources: SourceService;
      parts: () => PipelineParts;
      settings: IngestionSettings;
      log: FastifyBaseLogger;
      finished: (run: Run) => Promise<void>;
    },
  ) {}

  /** Tells the queue a run is waiting. */
  async announce(runId: string) {
    await this.deps.queue.enqueue(RUN_JOB, { runId }, { jobId: runId });
  }

  /** Makes this process a worker: consume jobs and sweep for lost or unannounced runs. */
  async startWorking() {
    this.deps.queue.handle(RUN_JOB, (payload) => this.execute(String(payload.runId)), { concurrency: this.deps.settings.runConcurrency });
    await this.deps.queue.start();
    await this.sweep();
    // Not unref'd: in `quarry worker` this timer is what keeps the process alive; close() clears it.
    this.sweeper = setInterval(() => void this.sweep(), this.deps.settings.sweepMs);
  }

  /** Stops the local copy of a run at once (the database already says it is cancelled). */
  abortLocal(runId: string) {
    this.active.get(runId)?.abort();
  }

  async sweep() {
    if (this.closing) return;
    try {
      const { repo, settings } = this.deps;
      const now = nowIso();
      for (const run of await repo.runnable(now)) {
        if (this.active.has(run.id)) continue;
        if (run.status === 'running' && run.attempts >= settings.maxAttempts) {
          const reason = `The worker running this run stopped responding ${run.attempts} times; giving up`;
          if (await repo.failAbandoned(run.id, now, settings.maxAttempts, reason)) {
            const ended = await repo.findAny(run.id);
            if (ended) await this.deps.finished(ended);
          }
        } else await this.announce(run.id);
      }
    } catch (err) {
      this.deps.log.error({ err }, 'ingestion sweep failed');
    }
  }

  private leaseUntil() {
    return new Date(Date.now() + this.deps.settings.leaseMs).toISOString();
  }

  async execute(runId: string) {
    const { repo, settings, log } = this.deps;
    if (this.closing || this.active.has(runId)) return;
    const run = await repo.claim(runId, this.owner, nowIso(), this.leaseUntil(), settings.maxAttempts);
    if (!run) return; // taken by another worker, finished, or cancelled
    const controller = new AbortController();
    this.active.set(runId, controller);
    const stats = new RunStats();
    const errors = new ErrorLog(settings.maxErrorsPerRun);
    const writeErrors = () => errors.flush((first, entries) => repo.insertErrors(runId, first, entries));
    let lost = false;
    let beating: Promise<void> = Promise.resolve();
    const heartbeat = setInterval(() => {
      beating = (async () => {
        await writeErrors();
        if (!(await repo.heartbeat(runId, this.owner, this.leaseUntil(), stats.snapshot()))) {
          lost = true;
          controller.abort();
        }
      })().catch((err) => log.warn({ err, runId }, 'run heartbeat failed'));
    }, settings.heartbeatMs);

    let outcome: RunOutcome;
    try {
      await repo.clearErrors(runId); // a retried run starts its error list afresh
      const source = await this.deps.sources.getInternal(run.sourceId);
      const config = source.config as Record<string, unknown>;
      outcome = await runPipeline(this.deps.parts(), { runId, sourceId: source.id, projectId: source.projectId, seeds: (config.urls as string[]) ?? [], config }, {
        signal: controller.signal,
        stats,
        errors,
        log,
        options: { embedBatchSize: settings.embedBatchSize, maxPendingWrites: settings.maxPendingWrites },
      });
    } catch (err) {
      outcome = controller.signal.aborted
        ? { status: 'cancelled', error: 'The run was cancelled' }
        : { status: 'failed', error: `The pipeline broke: ${(err as Error)?.message ?? String(err)}` };
      if (!controller.signal.aborted) log.error({ err, runId }, 'ingestion run failed');
    } finally {
      clearInterval(heartbeat);
      await beating;
      this.active.delete(runId);
    }
    try {
      await writeErrors();
      const final = stats.snapshot();
      if (this.closing && controller.signal.aborted && !lost) {
        await repo.release(runId, this.owner); // shutting down: another worker continues it
        return;
      }
      if (await repo.finish(runId, this.owner, { ...outcome, stats: final, at: nowIso() })) {
        await this.updateSourceStats(run.sourceId, final, outcome.status === 'succeeded');
        const ended = await repo.findAny(runId);
        if (ended) await this.deps.finished(ended);
      } else if ((await repo.findAny(runId))?.status === 'cancelled') {
        await repo.saveStats(runId, final); // cancelled meanwhile: keep what it counted
      }
    } catch (err) {
      log.error({ err, runId }, 'could not record the end of an ingestion run');
    }
  }

  /** Index totals plus the latest run's page counts; `lastIngestedAt` moves only on success. */
  private async updateSourceStats(sourceId: string, stats: Record<string, number>, succeeded: boolean) {
    const counts = await this.deps.parts().index.counts(sourceId);
    await this.deps.repo.mergeSourceStats(sourceId, {
      ...counts,
      pagesCrawled: stats.pagesFetched,
      pagesFailed: stats.pagesFailed,
      pagesSkipped: stats.pagesSkipped,
      ...(succeeded ? { lastIngestedAt: nowIso() } : {}),
    });
  }

  async close() {
    this.closing = true;
    if (this.sweeper) clearInterval(this.sweeper);
    for (const controller of this.active.values()) controller.abort();
    await this.deps.queue.close();
  }
}
