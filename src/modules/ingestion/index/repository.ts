import { sql, type Generated } from 'kysely';
import { dialectOf, readJson, typed, writeJson, type AnyDb } from '../../../kernel/db/dialect.js';
import { offsetOf } from '../../../kernel/http/pagination.js';
import type { PreviousFetch } from '../contracts.js';
import { ftsMatch, tsQuery } from './keyword-query.js';

export interface DocumentRow {
  id: string;
  source_id: string;
  project_id: string;
  url: string;
  canonical_url: string | null;
  title: string;
  description: string | null;
  language: string | null;
  hash: string;
  etag: string | null;
  last_modified: string | null;
  markdown: string;
  chunk_count: number;
  tokens: number;
  fetched_at: string;
  last_seen_run_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChunkRow {
  seq: number;
  id: string;
  document_id: string;
  source_id: string;
  project_id: string;
  position: number;
  heading_path: unknown;
  heading: string;
  title: string;
  text: string;
  tokens: number;
  embedder: string | null;
}

export type NewChunk = Omit<ChunkRow, 'seq'>;

export interface HitRow {
  id: string;
  document_id: string;
  source_id: string;
  url: string;
  title: string;
  heading_path: unknown;
  text: string;
}

interface Tables {
  documents: DocumentRow;
  chunks: NewChunk & { seq: Generated<number> };
  chunks_fts: { rowid: number; scope: string; title: string; heading: string; text: string };
  sources: { id: string; project_id: string; deleted_at: string | null };
  projects: { id: string; deleted_at: string | null };
}

type Db = ReturnType<typeof typed<Tables>>;

/** Column weights for bm25 (title, heading, text); the scope column never scores. */
const BM25_WEIGHTS = sql.raw('0.0, 2.0, 1.5, 1.0');

export class IndexRepository {
  readonly db: Db;
  readonly postgres: boolean;

  constructor(db: AnyDb) {
    this.db = typed<Tables>(db);
    this.postgres = dialectOf(db) === 'postgres';
  }

  transaction<T>(fn: (repo: IndexRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new IndexRepository(trx as unknown as AnyDb)));
  }

  async previousFetches(sourceId: string): Promise<Array<{ url: string } & PreviousFetch>> {
    const rows = await this.db
      .selectFrom('documents')
      .select(['url', 'etag', 'last_modified', 'hash'])
      .where('source_id', '=', sourceId)
      .execute();
    return rows.map((r) => ({ url: r.url, etag: r.etag, lastModified: r.last_modified, hash: r.hash }));
  }

  async findByUrls(sourceId: string, urls: string[]): Promise<Array<Pick<DocumentRow, 'id' | 'url' | 'hash'>>> {
    if (!urls.length) return [];
    return this.db.selectFrom('documents').select(['id', 'url', 'hash']).where('source_id', '=', sourceId).where('url', 'in', urls).execute();
  }

  async insertDocument(row: DocumentRow): Promise<void> {
    await this.db.insertInto('documents').values(row).execute();
  }

  async updateDocument(id: string, fields: Partial<DocumentRow>): Promise<void> {
    await this.db.updateTable('documents').set(fields).where('id', '=', id).execute();
  }

  async deleteChunksOf(documentId: string): Promise<void> {
    await this.db.deleteFrom('chunks').where('document_id', '=', documentId).execute();
  }

  /** Inserts chunks (and, on SQLite, their FTS rows); returns the new `seq` of each, in order. */
  async insertChunks(rows: NewChunk[], scope: string): Promise<number[]> {
    const seqs: number[] = [];
    for (let i = 0; i < rows.length; i += 100) {
      const part = rows.slice(i, i + 100).map((r) => ({ ...r, heading_path: writeJson(r.heading_path) }));
      const inserted = await this.db.insertInto('chunks').values(part).returning(['seq']).execute();
      seqs.push(...inserted.map((r) => Number(r.seq)));
    }
    if (!this.postgres)
      for (let i = 0; i < rows.length; i += 100)
        await this.db
          .insertInto('chunks_fts')
          .values(rows.slice(i, i + 100).map((r, j) => ({ rowid: seqs[i + j]!, scope, title: r.title, heading: r.heading, text: r.text })))
          .execute();
    return seqs;
  }

  async markSeen(sourceId: string, urls: string[], runId: string): Promise<void> {
    for (let i = 0; i < urls.length; i += 500)
      await this.db
        .updateTable('documents')
        .set({ last_seen_run_id: runId })
        .where('source_id', '=', sourceId)
        .where('url', 'in', urls.slice(i, i + 500))
        .execute();
  }

  async setValidators(sourceId: string, url: string, etag: string | null, lastModified: string | null): Promise<void> {
    await this.db.updateTable('documents').set({ etag, last_modified: lastModified }).where('source_id', '=', sourceId).where('url', '=', url).execute();
  }

  async countSeen(sourceId: string, runId: string): Promise<{ indexed: number; seen: number }> {
    const row = await this.db
      .selectFrom('documents')
      .select((eb) => [eb.fn.countAll<number>().as('indexed'), eb.fn.sum<number>(sql`case when last_seen_run_id = ${runId} then 1 else 0 end`).as('seen')])
      .where('source_id', '=', sourceId)
      .executeTakeFirst();
    return { indexed: Number(row?.indexed ?? 0), seen: Number(row?.seen ?? 0) };
  }

  async deleteUnseen(sourceId: string, runId: string): Promise<number> {
    const result = await this.db
      .deleteFrom('documents')
      .where('source_id', '=', sourceId)
      .where((eb) => eb.or([eb('last_seen_run_id', 'is', null), eb('last_seen_run_id', '!=', runId)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async totals(where: { projectId?: string; sourceId?: string }): Promise<{ documents: number; chunks: number; tokens: number }> {
    let q = this.db
      .selectFrom('documents')
      .select((eb) => [eb.fn.countAll<number>().as('documents'), eb.fn.sum<number>('chunk_count').as('chunks'), eb.fn.sum<number>('tokens').as('tokens')]);
    if (where.projectId) q = q.where('project_id', '=', where.projectId);
    if (where.sourceId) q = q.where('source_id', '=', where.sourceId);
    const row = await q.executeTakeFirst();
    return { documents: Number(row?.documents ?? 0), chunks: Number(row?.chunks ?? 0), tokens: Number(row?.tokens ?? 0) };
  }

  /** Ids of documents whose source or project is soft-deleted, a batch at a time. */
  async deletedDocumentIds(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('documents as d')
      .leftJoin('sources as s', 's.id', 'd.source_id')
      .leftJoin('projects as p', 'p.id', 'd.project_id')
      .select('d.id')
      .where((eb) => eb.or([eb('s.deleted_at', 'is not', null), eb('p.deleted_at', 'is not', null), eb('s.id', 'is', null)]))
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Deletes documents; chunks follow by cascade and FTS/vector rows by trigger or foreign key. */
  async deleteDocuments(ids: string[]): Promise<number> {
    if (!ids.length) return 0;
    const result = await this.db.deleteFrom('documents').where('id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async listDocuments(sourceId: string, page: number, limit: number): Promise<DocumentRow[]> {
    return this.db
      .selectFrom('documents')
      .selectAll()
      .where('source_id', '=', sourceId)
      .orderBy('url')
      .orderBy('id')
      .limit(limit + 1)
      .offset(offsetOf(page, limit))
      .execute();
  }

  /** A document of a live source in a live project. */
  async findDocument(id: string): Promise<DocumentRow | undefined> {
    return this.db
      .selectFrom('documents as d')
      .innerJoin('sources as s', 's.id', 'd.source_id')
      .innerJoin('projects as p', 'p.id', 'd.project_id')
      .selectAll('d')
      .where('d.id', '=', id)
      .where('s.deleted_at', 'is', null)
      .where('p.deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Best keyword matches among live chunks of a project: chunk ids with a higher-is-better score. */
  async keyword(terms: string[], opts: { projectId: string; k: number; sourceIds?: string[]; maxPostings?: number }): Promise<Array<{ id: string; score: number }>> {
    if (!terms.length) return [];
    const sourceFilter = opts.sourceIds?.length ? sql`and c.source_id in (${sql.join(opts.sourceIds)})` : sql``;
    if (this.postgres) {
      const rows = await sql<{ id: string; score: number }>`
          select c.id, ts_rank(c.tsv, q, 1) as score
          from chunks c cross join to_tsquery('english', ${tsQuery(terms)}) q
          join sources s on s.id = c.source_id and s.deleted_at is null
          join projects p on p.id = c.project_id and p.deleted_at is null
          where c.tsv @@ q and c.project_id = ${opts.projectId} ${sourceFilter}
          order by score desc, c.id limit ${opts.k}`.execute(this.db);
      return rows.rows.map((r) => ({ id: r.id, score: Number(r.score) }));
    }
    if (opts.maxPostings && terms.length > 1) terms = await this.withinBudget(terms, opts.maxPostings);
    // Scoping the MATCH to the project costs ~40% more (every row carries the scope token), so the
    // unscoped top list is tried first and filtered; bm25 scores do not depend on the scope, so
    // when it holds enough of the project's chunks they are exactly the scoped top k.
    const fast = await this.ftsTop(ftsMatch(terms), opts.k * 4, opts);
    if (fast.length >= opts.k) return fast.slice(0, opts.k);
    return (await this.ftsTop(ftsMatch(terms, opts.projectId, opts.sourceIds), opts.k * 2, opts)).slice(0, opts.k);
  }

  /**
   * bm25 costs time for every chunk that matches any term, and an OR of common words matches most
   * of a large index. Like Elasticsearch's cutoff frequency, the most common terms (the lowest
   * idf, so the least say in the ranking) are left out while the terms together occur in more
   * than `budget` chunks; the rarest term always stays. Small indexes never reach the budget.
   */
  private async withinBudget(terms: string[], budget: number): Promise<string[]> {
    const counted: Array<{ term: string; chunks: number }> = [];
    for (const term of terms) {
      const row = await sql<{ n: number }>`select count(*) as n from chunks_fts where chunks_fts match ${ftsMatch([term])}`.execute(this.db);
      counted.push({ term, chunks: Number(row.rows[0]?.n ?? 0) });
    }
    counted.sort((a, b) => a.chunks - b.chunks);
    const kept: string[] = [];
    let postings = 0;
    for (const { term, chunks } of counted) {
      if (kept.length && postings + chunks > budget) break;
      kept.push(term);
      postings += chunks;
    }
    return kept;
  }

  // CROSS JOIN fixes the join order (SQLite's hint): the few top FTS rows look up their chunks by
  // key. Left to itself the planner scanned every chunk of the project (the project_id index)
  // and probed the FTS rows, which cost more than the full-text search itself at 100k chunks.
  private async ftsTop(match: string, depth: number, opts: { projectId: string; sourceIds?: string[] }) {
    const sourceFilter = opts.sourceIds?.length ? sql`and c.source_id in (${sql.join(opts.sourceIds)})` : sql``;
    const rows = await sql<{ id: string; rank: number }>`
        select c.id, f.rank from (
          select rowid, bm25(chunks_fts, ${BM25_WEIGHTS}) as rank from chunks_fts
          where chunks_fts match ${match} order by rank limit ${depth}) f
        cross join chunks c on c.seq = f.rowid
        join sources s on s.id = c.source_id and s.deleted_at is null
        join projects p on p.id = c.project_id and p.deleted_at is null
        where c.project_id = ${opts.projectId} ${sourceFilter}
        order by f.rank`.execute(this.db);
    return rows.rows.map((r) => ({ id: r.id, score: -Number(r.rank) }));
  }

  async hits(ids: string[]): Promise<HitRow[]> {
    if (!ids.length) return [];
    return this.db
      .selectFrom('chunks as c')
      .innerJoin('documents as d', 'd.id', 'c.document_id')
      .select(['c.id', 'c.document_id', 'c.source_id', 'd.url', 'd.title', 'c.heading_path', 'c.text'])
      .where('c.id', 'in', ids)
      .execute();
  }
}

export const headingPathOf = (value: unknown) => readJson<string[]>(value, []);
