import type { Kysely } from 'kysely';
import { jsonType, type AnyDb } from '../../kernel/db/dialect.js';
import type { MigrationSet } from '../../kernel/db/migrate.js';

export const projectMigrations: MigrationSet = {
  '20261122_0100_projects': {
    async up(db: Kysely<unknown>) {
      const anyDb = db as AnyDb;
      await anyDb.schema
        .createTable('projects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('metadata', jsonType(anyDb), (c) => c.notNull())
        .addColumn('features', jsonType(anyDb), (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute();
      await anyDb.schema.createIndex('projects_listing').on('projects').columns(['created_at desc', 'id desc']).execute();
    },
  },
};
