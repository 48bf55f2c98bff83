import type { Kysely } from 'kysely';
import { jsonType, type AnyDb } from '../../kernel/db/dialect.js';
import type { MigrationSet } from '../../kernel/db/migrate.js';

export const userMigrations: MigrationSet = {
  '20261122_0500_users': {
    async up(db: Kysely<unknown>) {
      const anyDb = db as AnyDb;
      await anyDb.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('permissions', jsonType(anyDb), (c) => c.notNull())
        .addColumn('password_hash', 'text')
        // Tokens issued before this instant are refused (password reset, "sign out everywhere").
        .addColumn('tokens_valid_after', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  // One row, written with the first user: a unique key makes two concurrent bootstraps yield one winner.
  '20261122_0510_user_bootstrap': {
    async up(db: Kysely<unknown>) {
      await (db as AnyDb).schema
        .createTable('user_bootstrap')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
};
