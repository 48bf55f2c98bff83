import type { Kysely } from 'kysely';
import { jsonType, type AnyDb } from '../../kernel/db/dialect.js';
import type { MigrationSet } from '../../kernel/db/migrate.js';

export const apiKeyMigrations: MigrationSet = {
  '20261122_0400_api_keys': {
    async up(db: Kysely<unknown>) {
      const anyDb = db as AnyDb;
      await anyDb.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('permissions', jsonType(anyDb), (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
    },
  },
};
