import { sql } from 'kysely';
import { isUniqueViolation, readJson, writeJson, typed, type AnyDb } from '../../kernel/db/dialect.js';
import { offsetOf } from '../../kernel/http/pagination.js';
import type { Run, RunError, RunStatus } from './schemas.js';

export interface RunRow {
  id: string;
  source_id: string;
  project_id: string;
  status: RunStatus;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  stats: unknown;
  attempts: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_by: string | null;
}

interface RunErrorRow {
  run_id: string;
  seq: number;
  url: string;
  status: number | null;
  reason: string;
  at: string;
}

type Tables = {
  runs: RunRow;
  run_errors: RunErrorRow;
  sources: { id: string; last_run_id: string | null; deleted_at: string | null; stats: unknown };
};

export const toRun = (r: RunRow): Run => ({
  runId: r.id,
  sourceId: r.source_id,
  projectId: r.project_id,
  status: r.status,
  queuedAt: r.queued_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  error: r.error,
  attempts: Number(r.attempts),
  stats: readJson(r.stats, {}),
});

export class RunRepository {
  readonly db;

  constructor(db: AnyDb) {
    this.db = typed<Tables>(db);
  }

  /**
   * Queues a run and points the source at it, atomically. Returns null when another run of the
   * source is active: the partial unique index decides, so this holds across processes.
   */
  async insertQueued(run: { id: string; sourceId: string; projectId: string; queuedAt: string; createdBy: string | null }): Promise<Run | null> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const row: RunRow = {
          id: run.id,
          source_id: run.sourceId,
          project_id: run.projectId,
          status: 'queued',
          queued_at: run.queuedAt,
          started_at: null,
          finished_at: null,
          error: null,
          stats: writeJson({}),
          attempts: 0,
          lease_owner: null,
          lease_expires_at: null,
          created_by: run.createdBy,
        };
        await trx.insertInto('runs').values(row).execute();
        await trx.updateTable('sources').set({ last_run_id: run.id }).where('id', '=', run.sourceId).execute();
        return toRun(row);
      });
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  }

  async find(id: string): Promise<Run | undefined> {
    const row = await this.db
      .selectFrom('runs')
      .innerJoin('sources', 'sources.id', 'runs.source_id')
      .selectAll('runs')
      .where('runs.id', '=', id)
      .where('sources.deleted_at', 'is', null)
      .executeTakeFirst();
    return row && toRun(row);
  }

  /** Reads a run whatever its source's state: the engine must see runs of deleted sources too. */
  async findAny(id: string): Promise<Run | undefined> {
    const row = await this.db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRun(row);
  }

  async listForSource(sourceId: string, page: number, limit: number): Promise<Run[]> {
    const rows = await this.db
      .selectFrom('runs')
      .selectAll()
      .where('source_id', '=', sourceId)
      .orderBy('queued_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .offset(offsetOf(page, limit))
      .execute();
    return rows.map(toRun);
  }

  /**
   * Takes a run for this worker: a queued run, or a running one whose lease expired (its worker
   * died). One UPDATE decides, so two workers can never both win.
   */
  async claim(id: string, owner: string, now: string, leaseUntil: string, maxAttempts: number): Promise<Run | undefined> {
    const result = await this.db
      .updateTable('runs')
      .set({
        status: 'running',
        attempts: sql<number>`attempts + 1`,
        lease_owner: owner,
        lease_expires_at: leaseUntil,
        started_at: sql<string>`coalesce(started_at, ${now})`,
      })
      .where('id', '=', id)
      .where('attempts', '<', maxAttempts)
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_expires_at', '<', now)])]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.findAny(id);
  }

  /**
   * Renews the lease and saves progress. False when the run is no longer ours to run: it was
   * cancelled, its source deleted, or the lease lapsed and another worker took it.
   */
  async heartbeat(id: string, owner: string, leaseUntil: string, stats: Record<string, number | null>): Promise<boolean> {
    const result = await this.db
      .updateTable('runs')
      .set({ lease_expires_at: leaseUntil, stats: writeJson(stats) })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Ends a run this worker holds. False when someone else already ended it (cancel, delete). */
  async finish(id: string, owner: string, end: { status: RunStatus; error: string | null; stats: Record<string, number | null>; at: string }): Promise<boolean> {
    const result = await this.db
      .updateTable('runs')
      .set({ status: end.status, error: end.error, stats: writeJson(end.stats), finished_at: end.at, lease_owner: null, lease_expires_at: null })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Hands a run back to the queue (graceful shutdown); the interrupted attempt does not count. */
  async release(id: string, owner: string) {
    await this.db
      .updateTable('runs')
      .set({ status: 'queued', lease_owner: null, lease_expires_at: null, attempts: sql<number>`attempts - 1` })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .execute();
  }

  /** Saves final counters of a run that ended elsewhere (cancelled while we ran). */
  async saveStats(id: string, stats: Record<string, number | null>) {
    await this.db.updateTable('runs').set({ stats: writeJson(stats) }).where('id', '=', id).execute();
  }

  /** Cancels a queued or running run. False when it had already finished. */
  async cancel(id: string, at: string, reason: string): Promise<boolean> {
    const result = await this.db
      .updateTable('runs')
      .set({ status: 'cancelled', finished_at: at, error: reason, lease_owner: null, lease_expires_at: null })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Runs a sweeper should (re-)enqueue: queued ones and running ones whose worker went silent. */
  async runnable(now: string, limit = 500): Promise<Array<{ id: string; attempts: number; status: RunStatus }>> {
    return this.db
      .selectFrom('runs')
      .select(['id', 'attempts', 'status'])
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_expires_at', '<', now)])]))
      .orderBy('queued_at')
      .limit(limit)
      .execute();
  }

  /** Fails a run whose worker died too often. False when it changed meanwhile. */
  async failAbandoned(id: string, now: string, maxAttempts: number, reason: string): Promise<boolean> {
    const result = await this.db
      .updateTable('runs')
      .set({ status: 'failed', error: reason, finished_at: now, lease_owner: null, lease_expires_at: null })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('lease_expires_at', '<', now)
      .where('attempts', '>=', maxAttempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async insertErrors(runId: string, firstSeq: number, errors: Array<{ url: string; status: number | null; reason: string; at: string }>) {
    if (!errors.length) return;
    await this.db
      .insertInto('run_errors')
      .values(errors.map((e, i) => ({ run_id: runId, seq: firstSeq + i, url: e.url.slice(0, 2048), status: e.status, reason: e.reason.slice(0, 1000), at: e.at })))
      .execute();
  }

  async clearErrors(runId: string) {
    await this.db.deleteFrom('run_errors').where('run_id', '=', runId).execute();
  }

  async listErrors(runId: string, page: number, limit: number): Promise<RunError[]> {
    const rows = await this.db
      .selectFrom('run_errors')
      .selectAll()
      .where('run_id', '=', runId)
      .orderBy('seq')
      .limit(limit + 1)
      .offset(offsetOf(page, limit))
      .execute();
    return rows.map((r) => ({ url: r.url, status: r.status === null ? null : Number(r.status), reason: r.reason, at: r.at }));
  }

  /**
   * Merges the latest finished run's summary into the source's stats (sources own the column;
   * ingestion fills it), keeping fields this update does not name.
   */
  async mergeSourceStats(sourceId: string, stats: Record<string, unknown>) {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('sources').select('stats').where('id', '=', sourceId).where('deleted_at', 'is', null).executeTakeFirst();
      if (!row) return;
      const merged = { ...readJson<Record<string, unknown>>(row.stats, {}), ...stats };
      await trx.updateTable('sources').set({ stats: writeJson(merged) }).where('id', '=', sourceId).execute();
    });
  }
}
