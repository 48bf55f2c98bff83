import { sql, type Kysely } from 'kysely';
import { jsonType, type AnyDb } from '../../kernel/db/dialect.js';
import type { MigrationSet } from '../../kernel/db/migrate.js';

export const ingestionMigrations: MigrationSet = {
  '20261122_0300_runs': {
    async up(db: Kysely<unknown>) {
      const anyDb = db as AnyDb;
      await anyDb.schema
        .createTable('runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('source_id', 'text', (c) => c.notNull().references('sources.id').onDelete('cascade'))
        .addColumn('project_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('queued_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addColumn('error', 'text')
        .addColumn('stats', jsonType(anyDb), (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'text')
        .addColumn('created_by', 'text')
        .execute();
      // The one-active-run rule lives in the database so it holds across processes.
      await sql`create unique index runs_one_active_per_source on runs (source_id) where status in ('queued', 'running')`.execute(anyDb);
      await anyDb.schema.createIndex('runs_by_source').on('runs').columns(['source_id', 'queued_at desc', 'id desc']).execute();
      await anyDb.schema.createIndex('runs_by_status').on('runs').columns(['status', 'queued_at']).execute();
    },
  },
  '20261122_0350_run_errors': {
    async up(db: Kysely<unknown>) {
      const anyDb = db as AnyDb;
      await anyDb.schema
        .createTable('run_errors')
        .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('run_errors_pk', ['run_id', 'seq'])
        .execute();
    },
  },
};
