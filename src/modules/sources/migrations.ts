import type { Kysely } from 'kysely';
import { jsonType, type AnyDb } from '../../kernel/db/dialect.js';
import type { MigrationSet } from '../../kernel/db/migrate.js';

export const sourceMigrations: MigrationSet = {
  '20261122_0200_sources': {
    async up(db: Kysely<unknown>) {
      const anyDb = db as AnyDb;
      await anyDb.schema
        .createTable('sources')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('config', jsonType(anyDb), (c) => c.notNull())
        .addColumn('stats', jsonType(anyDb), (c) => c.notNull())
        .addColumn('last_run_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute();
      await anyDb.schema.createIndex('sources_by_project').on('sources').columns(['project_id', 'created_at desc', 'id desc']).execute();
    },
  },
};
