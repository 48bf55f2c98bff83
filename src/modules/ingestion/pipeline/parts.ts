import type { ChunkDraft, CrawlEvent, CrawlSummary, Embedder, FetchedPage, PageOutcome, ParsedPage, PreviousFetch } from '../contracts.js';

/** What a run needs from the crawler. */
export interface CrawlRequest {
  seeds: string[];
  /** The source's stored config (crawl rules live in it). */
  config: Record<string, unknown>;
  previous: Map<string, KnownPage>;
  signal: AbortSignal;
  onPage(page: FetchedPage): Promise<PageOutcome>;
  onEvent(event: CrawlEvent): void;
}

/** A page ready to index: parsed once, chunked, hashed. */
export interface PreparedPage {
  parsed: ParsedPage;
  hash: string;
  chunks: ChunkDraft[];
  /** Vectors computed with the page (CPU-only embedders), one per chunk. */
  vectors?: Float32Array[] | null;
}

export interface DocumentWrite {
  sourceId: string;
  projectId: string;
  runId: string;
  page: FetchedPage;
  prepared: PreparedPage;
  /** One vector per chunk, or null to let the index embed (or when vectors are off). */
  vectors: Float32Array[] | null;
}

/** The index as the pipeline uses it; an adapter maps it onto the index module's service. */
/** A page's last fetch; `links` lets a run continue through pages that answer 304. */
export type KnownPage = PreviousFetch & { links?: string[] };

export interface RunIndex {
  previousFetches(sourceId: string): Promise<Map<string, KnownPage>>;
  upsertDocuments(docs: DocumentWrite[]): Promise<void>;
  markSeen(sourceId: string, runId: string, pages: Array<{ url: string; etag: string | null; lastModified: string | null }>): Promise<void>;
  /**
   * Removes documents of the source this run did not see, unless the run saw under half of what
   * is indexed (then the site more likely failed than shrank: `skipped`).
   */
  removeMissing(sourceId: string, runId: string): Promise<{ removed: number; skipped: boolean }>;
  counts(sourceId: string): Promise<{ documents: number; chunks: number; tokens: number }>;
}

/** Parse + chunk + hash; CPU work that may run in a worker thread. */
export type Preparer = (page: { url: string; body: string; contentType: string; previousHash?: string | null }) => Promise<PreparedPage>;

export interface PipelineParts {
  crawl(request: CrawlRequest): Promise<CrawlSummary>;
  prepare: Preparer;
  embedder: Embedder | null;
  index: RunIndex;
  close?(): Promise<void>;
}
