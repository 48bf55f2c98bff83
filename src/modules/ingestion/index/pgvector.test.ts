import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestionMigrations } from '../migrations.js';
import { projectMigrations } from '../../projects/migrations.js';
import { sourceMigrations } from '../../sources/migrations.js';
import { migrateToLatest } from '../../../kernel/db/migrate.js';
import type { AnyDb } from '../../../kernel/db/dialect.js';
import { HashingEmbedder } from '../embed/hashing.js';
import { indexMigrations } from './migrations.js';
import { IndexRepository } from './repository.js';
import { IndexService } from './service.js';
import { searchSettingsWithDefaults } from './settings.js';
import { VectorStore } from './vector-store.js';

/** Kysely's PostgresDialect over PGlite: a pool of one connection that is PGlite itself. */
function kyselyOverPglite(pglite: PGlite): AnyDb {
  const client = {
    async query(text: string, params: unknown[]) {
      const r = await pglite.query(text, params);
      return { command: r.command, rowCount: r.affectedRows ?? r.rows.length, rows: r.rows };
    },
    release() {},
  };
  return new Kysely({ dialect: new PostgresDialect({ pool: { connect: async () => client, end: async () => {} } as never }) });
}

let pglite: PGlite;
let db: AnyDb;
let index: IndexService;
const embedder = new HashingEmbedder({ dimensions: 64 });

beforeAll(async () => {
  // One PGlite per file: it takes seconds to start.
  pglite = await PGlite.create({ extensions: { vector } });
  db = kyselyOverPglite(pglite);
  await migrateToLatest(db, { ...projectMigrations, ...sourceMigrations, ...ingestionMigrations, ...indexMigrations });
  const store = new VectorStore(db, embedder.dimensions);
  await store.ensure();
  index = new IndexService(new IndexRepository(db), embedder, store, searchSettingsWithDefaults(), undefined);
  const now = new Date().toISOString();
  await sql`insert into projects (id, name, status, metadata, features, created_at, updated_at) values ('prj_a', 'A', 'active', '{}', '{}', ${now}, ${now})`.execute(db);
  for (const id of ['src_1', 'src_2'])
    await sql`insert into sources (id, project_id, type, name, config, stats, created_at, updated_at) values (${id}, 'prj_a', 'web', ${id}, '{}', '{}', ${now}, ${now})`.execute(db);
  const doc = (sourceId: string, url: string, title: string, text: string) => ({
    sourceId,
    projectId: 'prj_a',
    runId: 'run_1',
    url,
    page: { url, canonicalUrl: null, title, description: null, language: 'en', markdown: text, links: [] },
    chunks: [{ position: 0, text, headingPath: [title], tokens: 10 }],
  });
  await index.upsertDocuments([
    doc('src_1', 'https://a/glaciers', 'Glaciers', 'Glaciers retreat as summer temperatures rise in the Alps.'),
    doc('src_1', 'https://a/bread', 'Bread', 'Sourdough bread needs a starter culture and a long fermentation.'),
    doc('src_2', 'https://b/ice', 'Ice sheets', 'Greenland ice sheet melting accelerates with warmer temperatures.'),
  ]);
}, 120_000);
afterAll(async () => {
  await db?.destroy();
  await pglite?.close();
});

describe('pgvector on PGlite', () => {
  it('creates the vector table with an HNSW cosine index', async () => {
    const idx = await sql<{ indexdef: string }>`select indexdef from pg_indexes where tablename = 'chunk_vectors_64'`.execute(db);
    expect(idx.rows.map((r) => r.indexdef).join('\n')).toMatch(/USING hnsw \(embedding vector_cosine_ops\)/);
    const count = await sql<{ n: number }>`select count(*)::int as n from chunk_vectors_64`.execute(db);
    expect(count.rows[0]!.n).toBe(3);
  });

  it('answers semantic, keyword and hybrid queries, with source filters', async () => {
    const semantic = await index.search('prj_a', { query: 'glacier retreat temperatures', limit: 2, mode: 'semantic' });
    expect(semantic.mode).toBe('semantic');
    expect(semantic.data[0]).toMatchObject({ url: 'https://a/glaciers', title: 'Glaciers', headingPath: ['Glaciers'] });
    expect(semantic.data[0]!.score).toBeGreaterThan(semantic.data[1]!.score);
    const keyword = await index.search('prj_a', { query: 'fermentation starter', limit: 5, mode: 'keyword' });
    expect(keyword.data.map((h) => h.url)).toEqual(['https://a/bread']);
    const hybrid = await index.search('prj_a', { query: 'warmer temperatures melting', limit: 5, mode: 'hybrid', sourceIds: ['src_2'] });
    expect(hybrid.data.map((h) => h.url)).toEqual(['https://b/ice']);
  });

  it('hides soft-deleted sources at once and cascades vectors on purge', async () => {
    await sql`update sources set deleted_at = ${new Date().toISOString()} where id = 'src_2'`.execute(db);
    const hits = await index.search('prj_a', { query: 'ice sheet melting', limit: 10, mode: 'semantic' });
    expect(hits.data.map((h) => h.sourceId)).not.toContain('src_2');
    expect(await index.purgeDeleted()).toBe(1);
    const count = await sql<{ n: number }>`select count(*)::int as n from chunk_vectors_64`.execute(db);
    expect(count.rows[0]!.n).toBe(2);
  });
});
