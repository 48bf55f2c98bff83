import { sql } from 'kysely';
import { containsInsensitive, readJson, writeJson, typed, type AnyDb } from '../../kernel/db/dialect.js';
import { offsetOf } from '../../kernel/http/pagination.js';
import type { ListProjectsQuery, Project } from './schemas.js';

interface ProjectRow {
  id: string;
  name: string;
  description: string | null;
  status: 'active' | 'archived';
  metadata: unknown;
  features: unknown;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

const toProject = (r: ProjectRow): Project => ({
  id: r.id,
  name: r.name,
  description: r.description,
  status: r.status,
  metadata: readJson(r.metadata, {}),
  features: readJson(r.features, {}),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class ProjectRepository {
  private readonly db;

  constructor(db: AnyDb) {
    this.db = typed<{ projects: ProjectRow }>(db);
  }

  async insert(p: Project): Promise<void> {
    await this.db
      .insertInto('projects')
      .values({
        id: p.id,
        name: p.name,
        description: p.description,
        status: p.status,
        metadata: writeJson(p.metadata),
        features: writeJson(p.features),
        created_at: p.createdAt,
        updated_at: p.updatedAt,
        deleted_at: null,
      })
      .execute();
  }

  async find(id: string): Promise<Project | undefined> {
    const row = await this.db.selectFrom('projects').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    return row && toProject(row);
  }

  /** Fetches one row more than asked, so the caller can tell whether another page exists. */
  async list(q: ListProjectsQuery): Promise<Project[]> {
    let query = this.db.selectFrom('projects').selectAll().where('deleted_at', 'is', null);
    if (q.status) query = query.where('status', '=', q.status);
    if (q.search) {
      const needle = q.search;
      query = query.where((eb) => eb.or([containsInsensitive(this.db, 'name', needle), containsInsensitive(this.db, 'description', needle)]));
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit + 1).offset(offsetOf(q.page, q.limit)).execute();
    return rows.map(toProject);
  }

  async update(p: Project): Promise<void> {
    await this.db
      .updateTable('projects')
      .set({
        name: p.name,
        description: p.description,
        status: p.status,
        metadata: writeJson(p.metadata),
        features: writeJson(p.features),
        updated_at: p.updatedAt,
      })
      .where('id', '=', p.id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** Hides the project from every read at once; `purgeDeleted` removes it and what hangs off it. */
  async softDelete(id: string, at: string): Promise<boolean> {
    const result = await this.db.updateTable('projects').set({ deleted_at: at }).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async purgeDeleted(): Promise<number> {
    const result = await this.db.deleteFrom('projects').where('deleted_at', 'is not', null).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The project with its source count, in one query (the sources table is read by name, not imported). */
  async findWithCounts(id: string): Promise<{ project: Project; sources: number } | undefined> {
    const row = await this.db
      .selectFrom('projects')
      .selectAll()
      .select(sql<number>`(select count(*) from sources where sources.project_id = projects.id and sources.deleted_at is null)`.as('source_count'))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row && { project: toProject(row), sources: Number(row.source_count) };
  }
}
