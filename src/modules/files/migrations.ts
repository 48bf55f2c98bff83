import type { Kysely } from 'kysely';
import { jsonType, type AnyDb } from '../../kernel/db/dialect.js';
import type { MigrationSet } from '../../kernel/db/migrate.js';

export const fileMigrations: MigrationSet = {
  '20261122_0700_files': {
    async up(db: Kysely<unknown>) {
      const anyDb = db as AnyDb;
      await anyDb.schema
        .createTable('files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('storage_key', 'text', (c) => c.notNull().unique())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('alt', 'text')
        .addColumn('folder', 'text', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('thumbnails', jsonType(anyDb), (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();
      await anyDb.schema.createIndex('files_folder').on('files').columns(['folder', 'created_at', 'id']).execute();
      await anyDb.schema.createIndex('files_listing').on('files').columns(['created_at', 'id']).execute();
    },
  },
};
