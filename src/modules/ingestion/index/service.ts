import { createHash } from 'node:crypto';
import type { BackgroundTasks } from '../../../kernel/background.js';
import type { AppContext } from '../../../kernel/context.js';
import { newId, nowIso } from '../../../kernel/db/ids.js';
import { notFound } from '../../../kernel/errors/app-error.js';
import { toPage, type Page } from '../../../kernel/http/pagination.js';
import type { ChunkDraft, Embedder, ParsedPage, PreviousFetch, SearchHit, SearchMode } from '../contracts.js';
import { reciprocalRankFusion } from './fusion.js';
import { queryTerms } from './keyword-query.js';
import { headingPathOf, IndexRepository, type DocumentRow, type NewChunk } from './repository.js';
import type { DocumentDetail, DocumentSummary } from './schemas.js';
import { fusionFor, type SearchSettings } from './settings.js';
import { VectorStore } from './vector-store.js';

export interface UpsertDocumentInput {
  sourceId: string;
  projectId: string;
  runId: string | null;
  /** The URL the page is known by (unique per source). */
  url: string;
  page: ParsedPage;
  /** sha256 hex of `page.markdown`; computed when absent. */
  hash?: string;
  etag?: string | null;
  lastModified?: string | null;
  chunks: ChunkDraft[];
  /** One vector per chunk from the index's embedder, or null to let the index embed. */
  vectors?: Float32Array[] | null;
  /** The id of the embedder that made `vectors`; must be the index's own (`index.embedder.id`). */
  embedderId?: string | null;
}

export interface SeenPage {
  url: string;
  etag: string | null;
  lastModified: string | null;
}

export interface UpsertResult {
  documentId: string;
  /** False when the stored hash matched: nothing was re-chunked or re-embedded. */
  changed: boolean;
  created: boolean;
}

export interface RemoveMissingResult {
  indexed: number;
  seen: number;
  removed: number;
  /** True when the crawl saw under half of what is indexed: nothing was removed. */
  skipped: boolean;
}

export interface SearchRequest {
  query: string;
  limit: number;
  mode: SearchMode;
  sourceIds?: string[];
}

export interface SearchResult {
  data: SearchHit[];
  /** The mode actually used: `keyword` when vectors are off, whatever was asked. */
  mode: SearchMode;
}

export const hashOf = (markdown: string) => createHash('sha256').update(markdown).digest('hex');

/** What gets embedded for a chunk: title and headings give short chunks their context. */
export const embeddingText = (title: string, chunk: Pick<ChunkDraft, 'headingPath' | 'text'>) =>
  [title, chunk.headingPath.join(' > '), chunk.text].filter(Boolean).join('\n');

/**
 * Documents, chunks and their keyword + vector index; search over them. The pipeline calls
 * `previousFetches`, `upsertDocuments`, `markSeen` and `removeMissing`; routes call the rest.
 */
export class IndexService {
  private readonly fusion: ReturnType<typeof fusionFor>;
  private readonly maxPostings: number;

  constructor(
    private readonly repo: IndexRepository,
    readonly embedder: Embedder,
    private readonly vectors: VectorStore | null,
    settings: SearchSettings,
    private readonly background?: BackgroundTasks,
  ) {
    this.fusion = fusionFor(settings, embedder.id);
    this.maxPostings = settings.maxPostings;
  }

  /** Builds the service for the app: loads sqlite-vec and makes sure the vector table exists. */
  static async open(ctx: AppContext, embedder: Embedder, settings: SearchSettings, vector: 'on' | 'off'): Promise<IndexService> {
    let vectors: VectorStore | null = null;
    if (vector === 'on') {
      VectorStore.loadSqliteExtension(ctx.database.sqlite);
      vectors = new VectorStore(ctx.db, embedder.dimensions);
      await vectors.ensure();
    }
    return new IndexService(new IndexRepository(ctx.db), embedder, vectors, settings, ctx.background);
  }

  get vectorsEnabled() {
    return this.vectors !== null;
  }

  async previousFetches(sourceId: string): Promise<Map<string, PreviousFetch>> {
    const rows = await this.repo.previousFetches(sourceId);
    return new Map(rows.map((r) => [r.url, { etag: r.etag, lastModified: r.lastModified, hash: r.hash }]));
  }

  hashOf(markdown: string) {
    return hashOf(markdown);
  }

  async upsertDocument(input: UpsertDocumentInput): Promise<UpsertResult> {
    return (await this.upsertDocuments([input]))[0]!;
  }

  /**
   * Stores pages in one transaction. Unchanged pages (same hash) only get their fetch metadata
   * and `last_seen_run_id` refreshed; changed ones are re-chunked and re-embedded (all their
   * chunks in one embedder call). Pages must belong to distinct (source, url) pairs.
   */
  async upsertDocuments(inputs: UpsertDocumentInput[]): Promise<UpsertResult[]> {
    if (!inputs.length) return [];
    const existing = new Map<string, { id: string; hash: string }>();
    for (const sourceId of new Set(inputs.map((i) => i.sourceId))) {
      const urls = inputs.filter((i) => i.sourceId === sourceId).map((i) => i.url);
      for (let i = 0; i < urls.length; i += 500)
        for (const row of await this.repo.findByUrls(sourceId, urls.slice(i, i + 500))) existing.set(`${sourceId} ${row.url}`, row);
    }
    for (const input of inputs)
      if (input.vectors && input.embedderId && input.embedderId !== this.embedder.id)
        throw new Error(`vectors of ${input.url} come from embedder ${input.embedderId}; this index uses ${this.embedder.id}`);
    const plans = inputs.map((input) => {
      const hash = input.hash ?? hashOf(input.page.markdown);
      const found = existing.get(`${input.sourceId} ${input.url}`);
      return { input, hash, found, changed: !found || found.hash !== hash, vectors: input.vectors ?? null };
    });
    if (this.vectors) {
      const toEmbed = plans.filter((p) => p.changed && !p.vectors && p.input.chunks.length);
      const texts = toEmbed.flatMap((p) => p.input.chunks.map((c) => embeddingText(p.input.page.title, c)));
      const embedded = texts.length ? await this.embedder.embed(texts, 'document') : [];
      let at = 0;
      for (const p of toEmbed) p.vectors = embedded.slice(at, (at += p.input.chunks.length));
    }
    const now = nowIso();
    return this.repo.transaction(async (repo) => {
      const results: UpsertResult[] = [];
      for (const plan of plans) {
        const { input, found } = plan;
        const fetchMeta = { etag: input.etag ?? null, last_modified: input.lastModified ?? null, fetched_at: now, last_seen_run_id: input.runId, updated_at: now };
        if (found && !plan.changed) {
          await repo.updateDocument(found.id, fetchMeta);
          results.push({ documentId: found.id, changed: false, created: false });
          continue;
        }
        const documentId = found?.id ?? newId('doc');
        const page = input.page;
        const content = {
          canonical_url: page.canonicalUrl,
          title: page.title,
          description: page.description,
          language: page.language,
          hash: plan.hash,
          markdown: page.markdown,
          chunk_count: input.chunks.length,
          tokens: input.chunks.reduce((n, c) => n + c.tokens, 0),
          ...fetchMeta,
        };
        if (found) {
          await repo.deleteChunksOf(found.id);
          await repo.updateDocument(found.id, content);
        } else await repo.insertDocument({ id: documentId, source_id: input.sourceId, project_id: input.projectId, url: input.url, created_at: now, ...content });
        await this.writeChunks(repo, documentId, input, plan.vectors);
        results.push({ documentId, changed: true, created: !found });
      }
      return results;
    });
  }

  private async writeChunks(repo: IndexRepository, documentId: string, input: UpsertDocumentInput, vectors: Float32Array[] | null) {
    const rows: NewChunk[] = input.chunks.map((c) => ({
      id: newId('chk'),
      document_id: documentId,
      source_id: input.sourceId,
      project_id: input.projectId,
      position: c.position,
      heading_path: c.headingPath,
      heading: c.headingPath.join(' > '),
      title: input.page.title,
      text: c.text,
      tokens: c.tokens,
      embedder: this.vectors && vectors ? this.embedder.id : null,
    }));
    const seqs = await repo.insertChunks(rows, `${input.projectId} ${input.sourceId}`);
    if (this.vectors && vectors) {
      if (vectors.length !== rows.length) throw new Error(`${vectors.length} vectors for ${rows.length} chunks of ${input.url}`);
      await this.vectors.insert(
        repo.db,
        rows.map((r, i) => ({ seq: seqs[i]!, chunkId: r.id, projectId: r.project_id, vector: vectors[i]! })),
      );
    }
  }

  /**
   * Records that a run saw these pages unchanged (e.g. 304 Not Modified), so removeMissing keeps
   * them. Pages given with their validators also get `etag`/`lastModified` refreshed.
   */
  async markSeen(sourceId: string, pages: Array<string | SeenPage>, runId: string): Promise<void> {
    const urls = pages.map((p) => (typeof p === 'string' ? p : p.url));
    const withMeta = pages.filter((p): p is SeenPage => typeof p !== 'string');
    await this.repo.transaction(async (repo) => {
      await repo.markSeen(sourceId, urls, runId);
      for (const p of withMeta) await repo.setValidators(sourceId, p.url, p.etag, p.lastModified);
    });
  }

  /**
   * After a complete crawl: removes documents the run did not see (pages gone from the site),
   * unless the run saw under half of what is indexed — then the site more likely failed than shrank.
   */
  async removeMissing(sourceId: string, runId: string): Promise<RemoveMissingResult> {
    const { indexed, seen } = await this.repo.countSeen(sourceId, runId);
    if (seen * 2 < indexed) return { indexed, seen, removed: 0, skipped: true };
    const removed = indexed > seen ? await this.repo.transaction((repo) => repo.deleteUnseen(sourceId, runId)) : 0;
    return { indexed, seen, removed, skipped: false };
  }

  async countsForProject(projectId: string): Promise<{ documents: number; chunks: number }> {
    const { documents, chunks } = await this.repo.totals({ projectId });
    return { documents, chunks };
  }

  sourceTotals(sourceId: string): Promise<{ documents: number; chunks: number; tokens: number }> {
    return this.repo.totals({ sourceId });
  }

  /** Removes documents (chunks, FTS and vector rows with them) of soft-deleted sources and projects. */
  async purgeDeleted(): Promise<number> {
    let total = 0;
    for (;;) {
      const ids = await this.repo.deletedDocumentIds(200);
      if (!ids.length) return total;
      total += await this.repo.transaction((repo) => repo.deleteDocuments(ids));
    }
  }

  sweep() {
    this.background?.run('purge documents', () => this.purgeDeleted());
  }

  /** Search within a project; the caller has checked the project exists. */
  async search(projectId: string, req: SearchRequest): Promise<SearchResult> {
    const mode: SearchMode = this.vectors ? req.mode : 'keyword';
    const scope = { projectId, ...(req.sourceIds?.length ? { sourceIds: req.sourceIds } : {}) };
    const k = mode === 'hybrid' ? Math.max(req.limit, this.fusion.candidates) : req.limit;
    const [keyword, semantic] = await Promise.all([
      mode === 'semantic' ? [] : this.repo.keyword(queryTerms(req.query), { ...scope, k, maxPostings: this.maxPostings }),
      mode === 'keyword' ? [] : this.semantic(req.query, { ...scope, k }),
    ]);
    let ranked: Array<{ id: string; score: number }>;
    if (mode === 'keyword') ranked = keyword;
    else if (mode === 'semantic') ranked = semantic.map((m) => ({ id: m.chunkId, score: m.similarity }));
    else
      ranked = reciprocalRankFusion(
        [
          { ids: keyword.map((h) => h.id), weight: this.fusion.keywordWeight },
          { ids: semantic.map((m) => m.chunkId), weight: this.fusion.vectorWeight },
        ],
        this.fusion.rrfK,
      );
    ranked = ranked.slice(0, req.limit);
    const rows = new Map((await this.repo.hits(ranked.map((r) => r.id))).map((r) => [r.id, r]));
    const data: SearchHit[] = [];
    for (const { id, score } of ranked) {
      const row = rows.get(id);
      if (row)
        data.push({ chunkId: id, documentId: row.document_id, sourceId: row.source_id, url: row.url, title: row.title, headingPath: headingPathOf(row.heading_path), text: row.text, score });
    }
    return { data, mode };
  }

  private async semantic(query: string, opts: { projectId: string; k: number; sourceIds?: string[] }) {
    const [vector] = await this.embedder.embed([query], 'query');
    return this.vectors!.nearest(vector!, { ...opts, embedder: this.embedder.id });
  }

  async listDocuments(sourceId: string, page: number, limit: number): Promise<Page<DocumentSummary>> {
    const rows = await this.repo.listDocuments(sourceId, page, limit);
    return toPage(rows.map(toSummary), page, limit);
  }

  async getDocument(id: string): Promise<DocumentDetail> {
    const row = await this.repo.findDocument(id);
    if (!row) throw notFound('document_not_found', id);
    return toDetail(row);
  }
}

const toSummary = (r: DocumentRow): DocumentSummary => ({ id: r.id, url: r.url, title: r.title, hash: r.hash, fetchedAt: r.fetched_at, chunkCount: r.chunk_count });

const toDetail = (r: DocumentRow): DocumentDetail => ({
  ...toSummary(r),
  sourceId: r.source_id,
  projectId: r.project_id,
  canonicalUrl: r.canonical_url,
  description: r.description,
  language: r.language,
  etag: r.etag,
  lastModified: r.last_modified,
  tokens: r.tokens,
  lastSeenRunId: r.last_seen_run_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  markdown: r.markdown,
});
