import { newId, nowIso } from '../../kernel/db/ids.js';
import { AppError, notFound } from '../../kernel/errors/app-error.js';
import { toPage, type Page } from '../../kernel/http/pagination.js';
import type { SourceService } from '../sources/service.js';
import type { ProjectService } from '../projects/service.js';
import type { RunRepository } from './run-repository.js';
import type { Run, RunError } from './schemas.js';

export type RunFinishedListener = (run: Run) => Promise<void> | void;

/** What the service needs from whichever engine executes runs. */
export interface RunDispatcher {
  announce(runId: string): Promise<void>;
  abortLocal(runId: string): void;
}

export class IngestionService {
  private readonly finishedListeners: RunFinishedListener[] = [];
  private dispatcher: RunDispatcher | null = null;

  constructor(
    private readonly runs: RunRepository,
    private readonly sources: SourceService,
    private readonly projects: ProjectService,
  ) {}

  attach(dispatcher: RunDispatcher) {
    this.dispatcher = dispatcher;
  }

  /**
   * Called once per run that reaches succeeded, failed or cancelled, by the process that made the
   * change (so each end is reported once). Listener errors are the listener's: they are caught.
   */
  onRunFinished(listener: RunFinishedListener) {
    this.finishedListeners.push(listener);
  }

  async emitFinished(run: Run) {
    for (const listener of this.finishedListeners) {
      try {
        await listener(run);
      } catch {
        // a listener (webhooks) must not break the engine; it logs its own failures
      }
    }
  }

  async trigger(sourceId: string, by: string | null): Promise<Run> {
    const source = await this.sources.getInternal(sourceId);
    await this.projects.requireActive(source.projectId);
    const run = await this.runs.insertQueued({ id: newId('run'), sourceId, projectId: source.projectId, queuedAt: nowIso(), createdBy: by });
    if (!run) throw new AppError('ingestion_in_progress', `Source ${sourceId} already has a queued or running run`);
    // A lost announcement is not lost work: workers sweep the table for queued runs. So a slow or
    // unreachable Redis must not hold the answer up either.
    if (this.dispatcher) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)));
      await Promise.race([this.dispatcher.announce(run.runId).catch(() => {}), timeout]);
      clearTimeout(timer);
    }
    return run;
  }

  async getRun(runId: string): Promise<Run> {
    const run = await this.runs.find(runId);
    if (!run) throw notFound('run_not_found', runId);
    return run;
  }

  async listRuns(sourceId: string, page: number, limit: number): Promise<Page<Run>> {
    await this.sources.getInternal(sourceId);
    return toPage(await this.runs.listForSource(sourceId, page, limit), page, limit);
  }

  async listErrors(runId: string, page: number, limit: number): Promise<Page<RunError>> {
    await this.getRun(runId);
    return toPage(await this.runs.listErrors(runId, page, limit), page, limit);
  }

  async cancel(runId: string, by: string | null): Promise<Run> {
    const current = await this.getRun(runId);
    if (!(await this.runs.cancel(runId, nowIso(), `Cancelled${by ? ` by ${by}` : ''}`)))
      throw new AppError('run_not_active', `Run ${runId} has already finished (${current.status})`);
    this.dispatcher?.abortLocal(runId);
    const run = await this.getRun(runId);
    await this.emitFinished(run);
    return run;
  }
}
