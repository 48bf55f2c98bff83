import { readJson, writeJson, typed, type AnyDb } from '../../kernel/db/dialect.js';
import { offsetOf } from '../../kernel/http/pagination.js';
import type { ListSourcesQuery, Source, SourceStats, SourceStatus } from './schemas.js';

interface SourceRow {
  id: string;
  project_id: string;
  type: string;
  name: string;
  config: unknown;
  stats: unknown;
  last_run_id: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

// The runs table belongs to the ingestion module; sources read it by name for `status` and `lastRun`
// (a source's status is its latest run's, never a copy that could drift).
interface RunRow {
  id: string;
  source_id: string;
  status: string;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}

type Tables = { sources: SourceRow; runs: RunRow; projects: { id: string; deleted_at: string | null } };

export const EMPTY_STATS: SourceStats = { documents: 0, chunks: 0, pagesCrawled: 0, pagesFailed: 0, lastIngestedAt: null };

export class SourceRepository {
  private readonly db;

  constructor(db: AnyDb) {
    this.db = typed<Tables>(db);
  }

  private selectSources() {
    return this.db
      .selectFrom('sources')
      .innerJoin('projects', 'projects.id', 'sources.project_id')
      .leftJoin('runs', 'runs.id', 'sources.last_run_id')
      .selectAll('sources')
      .select([
        'runs.status as run_status',
        'runs.queued_at as run_queued_at',
        'runs.started_at as run_started_at',
        'runs.finished_at as run_finished_at',
      ])
      .where('sources.deleted_at', 'is', null)
      .where('projects.deleted_at', 'is', null);
  }

  private toSource(r: SourceRow & { run_status: string | null; run_queued_at: string | null; run_started_at: string | null; run_finished_at: string | null }): Source {
    return {
      id: r.id,
      projectId: r.project_id,
      type: r.type,
      name: r.name,
      config: readJson(r.config, {}),
      status: (r.run_status ?? 'idle') as SourceStatus,
      lastRun:
        r.last_run_id && r.run_status
          ? { runId: r.last_run_id, status: r.run_status, queuedAt: r.run_queued_at!, startedAt: r.run_started_at, finishedAt: r.run_finished_at }
          : null,
      stats: { ...EMPTY_STATS, ...readJson<Partial<SourceStats>>(r.stats, {}) },
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  async insert(s: { id: string; projectId: string; type: string; name: string; config: unknown; createdAt: string }) {
    await this.db
      .insertInto('sources')
      .values({
        id: s.id,
        project_id: s.projectId,
        type: s.type,
        name: s.name,
        config: writeJson(s.config),
        stats: writeJson(EMPTY_STATS),
        last_run_id: null,
        created_at: s.createdAt,
        updated_at: s.createdAt,
        deleted_at: null,
      })
      .execute();
  }

  async find(id: string): Promise<Source | undefined> {
    const row = await this.selectSources().where('sources.id', '=', id).executeTakeFirst();
    return row && this.toSource(row);
  }

  async list(q: ListSourcesQuery): Promise<Source[]> {
    let query = this.selectSources().where('sources.project_id', '=', q.projectId);
    if (q.status === 'idle') query = query.where('runs.status', 'is', null);
    else if (q.status) query = query.where('runs.status', '=', q.status);
    const rows = await query
      .orderBy('sources.created_at', 'desc')
      .orderBy('sources.id', 'desc')
      .limit(q.limit + 1)
      .offset(offsetOf(q.page, q.limit))
      .execute();
    return rows.map((r) => this.toSource(r));
  }

  async update(id: string, fields: { name: string; config: unknown; updatedAt: string }) {
    await this.db
      .updateTable('sources')
      .set({ name: fields.name, config: writeJson(fields.config), updated_at: fields.updatedAt })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** Hides the source at once and stops its active run, in one transaction. */
  async softDelete(id: string, at: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('sources').set({ deleted_at: at }).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx
        .updateTable('runs')
        .set({ status: 'cancelled', finished_at: at, error: 'The source was deleted' })
        .where('source_id', '=', id)
        .where('status', 'in', ['queued', 'running'])
        .execute();
      return true;
    });
  }

  async purgeDeleted(): Promise<number> {
    const result = await this.db.deleteFrom('sources').where('deleted_at', 'is not', null).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async setStats(id: string, stats: SourceStats) {
    await this.db.updateTable('sources').set({ stats: writeJson(stats) }).where('id', '=', id).execute();
  }
}
