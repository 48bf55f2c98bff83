import { sql, type Kysely } from 'kysely';
import { dialectOf, jsonType, type AnyDb } from '../../../kernel/db/dialect.js';
import type { MigrationSet } from '../../../kernel/db/migrate.js';

/**
 * Documents and chunks, plus the keyword index: FTS5 on SQLite (a contentless table kept in step
 * by triggers, so cascading deletes clean it too), a generated tsvector + GIN on PostgreSQL.
 * Vector tables depend on the embedder's dimensions and are created at start-up (vector-store.ts).
 */
export const indexMigrations: MigrationSet = {
  '20261122_0310_documents': {
    async up(db: Kysely<unknown>) {
      const anyDb = db as AnyDb;
      await anyDb.schema
        .createTable('documents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('source_id', 'text', (c) => c.notNull().references('sources.id').onDelete('cascade'))
        .addColumn('project_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('canonical_url', 'text')
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('language', 'text')
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('etag', 'text')
        .addColumn('last_modified', 'text')
        .addColumn('markdown', 'text', (c) => c.notNull())
        .addColumn('chunk_count', 'integer', (c) => c.notNull())
        .addColumn('tokens', 'integer', (c) => c.notNull())
        .addColumn('fetched_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_run_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('documents_source_url', ['source_id', 'url'])
        .execute();
      await anyDb.schema.createIndex('documents_by_project').on('documents').columns(['project_id']).execute();
    },
  },
  '20261122_0311_chunks': {
    async up(db: Kysely<unknown>) {
      const anyDb = db as AnyDb;
      const postgres = dialectOf(anyDb) === 'postgres';
      let table = anyDb.schema.createTable('chunks');
      // SQLite: an explicit integer key, because FTS5 and vec0 rows are addressed by a stable rowid.
      table = postgres
        ? table.addColumn('seq', 'bigserial', (c) => c.notNull().unique()).addColumn('id', 'text', (c) => c.primaryKey())
        : table.addColumn('seq', 'integer', (c) => c.primaryKey()).addColumn('id', 'text', (c) => c.notNull().unique());
      await table
        .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
        .addColumn('source_id', 'text', (c) => c.notNull())
        .addColumn('project_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('heading_path', jsonType(anyDb), (c) => c.notNull())
        .addColumn('heading', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('tokens', 'integer', (c) => c.notNull())
        .addColumn('embedder', 'text')
        .execute();
      await anyDb.schema.createIndex('chunks_by_document').on('chunks').columns(['document_id', 'position']).execute();
      await anyDb.schema.createIndex('chunks_by_project').on('chunks').columns(['project_id', 'source_id']).execute();
      if (postgres) {
        await sql`alter table chunks add column tsv tsvector generated always as (
            setweight(to_tsvector('english', title), 'A') ||
            setweight(to_tsvector('english', heading), 'B') ||
            to_tsvector('english', text)) stored`.execute(anyDb);
        await sql`create index chunks_tsv on chunks using gin (tsv)`.execute(anyDb);
        return;
      }
      // `scope` holds the project and source ids as tokens so a MATCH can be narrowed inside FTS5.
      await sql`create virtual table chunks_fts using fts5(
          scope, title, heading, text,
          content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`.execute(anyDb);
      await sql`create trigger chunks_fts_delete after delete on chunks begin
          delete from chunks_fts where rowid = old.seq; end`.execute(anyDb);
    },
  },
};
