import type { Kysely } from 'kysely';
import { jsonType, type AnyDb } from '../../kernel/db/dialect.js';
import type { MigrationSet } from '../../kernel/db/migrate.js';

export const webhookMigrations: MigrationSet = {
  '20261122_0800_webhooks': {
    async up(db: Kysely<unknown>) {
      const anyDb = db as AnyDb;
      await anyDb.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', jsonType(anyDb), (c) => c.notNull())
        .addColumn('models', jsonType(anyDb), (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // The outbox: one row per event and endpoint, written in the transaction of the change.
      await anyDb.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('model', 'text')
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('lease_until', 'text')
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('duration_ms', 'integer')
        .addColumn('redelivery_of', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('delivered_at', 'text')
        .execute();
      await anyDb.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
      await anyDb.schema.createIndex('webhook_deliveries_listing').on('webhook_deliveries').columns(['created_at', 'id']).execute();
    },
  },
};
