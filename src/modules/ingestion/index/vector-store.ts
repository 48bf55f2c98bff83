import { sql } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import type SQLite from 'better-sqlite3';
import { ConfigError } from '../../../kernel/config/load.js';
import { dialectOf, type AnyDb } from '../../../kernel/db/dialect.js';
import { simhash, simhashBits } from './simhash.js';

export interface VectorRow {
  seq: number;
  chunkId: string;
  projectId: string;
  vector: Float32Array;
}

export interface VectorMatch {
  chunkId: string;
  similarity: number;
}

const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const toPgVector = (v: Float32Array) => `[${Array.from(v).join(',')}]`;

/**
 * Nearest-neighbour storage for one vector size. SQLite: a sqlite-vec `vec0` table partitioned by
 * project (a KNN never scans other projects), SimHash bits for the scan, rescored with the
 * stored float vectors, cleaned by a trigger on `chunks`. PostgreSQL:
 * pgvector with an HNSW cosine index, cleaned by the foreign key.
 */
export class VectorStore {
  readonly table: string;
  private readonly postgres: boolean;

  constructor(
    private readonly db: AnyDb,
    readonly dimensions: number,
  ) {
    this.postgres = dialectOf(db) === 'postgres';
    this.table = this.postgres ? `chunk_vectors_${dimensions}` : `chunk_vectors_sh_${dimensions}`;
  }

  /** Loads sqlite-vec into the shared SQLite handle. Sync, so it happens before anything deletes chunks. */
  static loadSqliteExtension(sqlite: SQLite.Database | undefined) {
    if (sqlite) sqliteVec.load(sqlite);
  }

  /** Creates the table, index and clean-up trigger if missing. Fails clearly without pgvector. */
  async ensure(): Promise<void> {
    const t = sql.table(this.table);
    if (!this.postgres) {
      // SimHash bits for the scan (hamming over 64 bytes instead of cosine over 2 KB per chunk),
      // and the float vector as an auxiliary column to rescore the short list by exact cosine.
      await sql`create virtual table if not exists ${t} using vec0(
          chunk_seq integer primary key, project_id text partition key,
          embedding bit[${sql.raw(String(simhashBits(this.dimensions)))}], +vector blob)`.execute(this.db);
      await sql`create trigger if not exists ${sql.id(`${this.table}_delete`)} after delete on chunks begin
          delete from ${t} where chunk_seq = old.seq; end`.execute(this.db);
      return;
    }
    const available = await sql<{ installed: string | null }>`
        select installed_version as installed from pg_available_extensions where name = 'vector'`.execute(this.db);
    if (!available.rows.length)
      throw new ConfigError(
        'PostgreSQL has no pgvector extension, which semantic and hybrid search need. Install pgvector ' +
          '(https://github.com/pgvector/pgvector) or set QUARRY_VECTOR=off for keyword-only search.',
      );
    if (!available.rows[0]!.installed) {
      try {
        await sql`create extension if not exists vector`.execute(this.db);
      } catch (err) {
        throw new ConfigError(
          `pgvector is installed but could not be enabled (${(err as Error).message}); run "CREATE EXTENSION vector" as a superuser, or set QUARRY_VECTOR=off`,
        );
      }
    }
    await sql`create table if not exists ${t} (
        chunk_id text primary key references chunks(id) on delete cascade,
        project_id text not null,
        embedding vector(${sql.raw(String(this.dimensions))}) not null)`.execute(this.db);
    await sql`create index if not exists ${sql.id(`${this.table}_hnsw`)} on ${t} using hnsw (embedding vector_cosine_ops)`.execute(this.db);
  }

  async insert(db: AnyDb, rows: VectorRow[]): Promise<void> {
    if (!rows.length) return;
    for (const r of rows)
      if (r.vector.length !== this.dimensions) throw new Error(`vector of ${r.vector.length} dimensions for a ${this.dimensions}-dimension index`);
    const t = sql.table(this.table);
    for (let i = 0; i < rows.length; i += 200) {
      const part = rows.slice(i, i + 200);
      if (this.postgres)
        await sql`insert into ${t} (chunk_id, project_id, embedding) values ${sql.join(
          part.map((r) => sql`(${r.chunkId}, ${r.projectId}, ${toPgVector(r.vector)}::vector)`),
        )}`.execute(db);
      else
        await sql`insert into ${t} (chunk_seq, project_id, embedding, vector) values ${sql.join(
          part.map((r) => sql`(${BigInt(r.seq)}, ${r.projectId}, vec_bit(${simhash(r.vector)}), ${toBlob(r.vector)})`),
        )}`.execute(db);
    }
  }

  /**
   * The `k` nearest chunks of a project by cosine similarity, only live ones (source and project
   * not deleted) made by `embedder`, optionally within some sources.
   */
  async nearest(query: Float32Array, opts: { projectId: string; k: number; embedder: string; sourceIds?: string[] }): Promise<VectorMatch[]> {
    const t = sql.table(this.table);
    const sourceFilter = opts.sourceIds?.length ? sql`and c.source_id in (${sql.join(opts.sourceIds)})` : sql``;
    if (this.postgres) {
      const rows = await sql<{ id: string; distance: number }>`
          select c.id, v.embedding <=> ${toPgVector(query)}::vector as distance
          from ${t} v join chunks c on c.id = v.chunk_id
          join sources s on s.id = c.source_id and s.deleted_at is null
          join projects p on p.id = c.project_id and p.deleted_at is null
          where v.project_id = ${opts.projectId} and c.embedder = ${opts.embedder} ${sourceFilter}
          order by v.embedding <=> ${toPgVector(query)}::vector limit ${opts.k}`.execute(this.db);
      return rows.rows.map((r) => ({ chunkId: r.id, similarity: 1 - Number(r.distance) }));
    }
    // Hamming KNN on the SimHash bits inside the project's partition gives a short list, rescored by
    // exact cosine. vec0's cost grows with k (100k chunks: k=50 ~7 ms, k=400 ~55 ms), so the list
    // stays short. Filters on other tables apply afterwards, so a source filter over-fetches.
    const shortList = Math.min(4096, Math.max(100, opts.k * 2) * (opts.sourceIds?.length ? 8 : 1));
    const blob = toBlob(query);
    const rows = await sql<{ id: string; distance: number }>`
        select c.id, vec_distance_cosine(knn.vector, ${blob}) as distance from (
          select chunk_seq, vector from ${t}
          where embedding match vec_bit(${simhash(query)}) and k = ${shortList} and project_id = ${opts.projectId}) knn
        join chunks c on c.seq = knn.chunk_seq
        join sources s on s.id = c.source_id and s.deleted_at is null
        join projects p on p.id = c.project_id and p.deleted_at is null
        where c.embedder = ${opts.embedder} ${sourceFilter}
        order by distance limit ${opts.k}`.execute(this.db);
    return rows.rows.map((r) => ({ chunkId: r.id, similarity: 1 - Number(r.distance) }));
  }
}
