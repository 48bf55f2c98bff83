/**
 * The seams between the parts of the ingestion pipeline. Each part lives in its own folder and
 * depends only on these types; the orchestrator (`pipeline/`) wires them together.
 *
 *   crawl/    fetches pages (scope, robots, SSRF guard, conditional requests)  -> FetchedPage
 *   extract/  one parse per page: links + canonical + main content as markdown -> ParsedPage
 *   chunk/    structure-aware chunks of the markdown                           -> ChunkDraft[]
 *   embed/    embedder port and providers                                      -> Float32Array[]
 *   index/    documents, chunks, keyword + vector index, search                -> SearchHit[]
 *   pipeline/ runs: queue engines, leases, stats, cancel; calls the parts above
 */

// ---- crawl ----
export interface PreviousFetch {
  etag: string | null;
  lastModified: string | null;
  hash: string;
  /**
   * The links the page had last time (absolute URLs). With them the crawler may send a
   * conditional request to a page whose links it still has to follow, and on a 304 it follows these.
   * Without them it only sends conditional requests to pages at the last depth (their links are not
   * followed), so a 304 never cuts the crawl short.
   */
  links?: string[];
}

export interface FetchedPage {
  /** The normalized URL that was requested. */
  url: string;
  /** The normalized URL after redirects. */
  finalUrl: string;
  depth: number;
  status: number;
  contentType: string;
  /** Decoded text. Empty when `notModified`. */
  body: string;
  bytes: number;
  etag: string | null;
  lastModified: string | null;
  /** The server answered 304 to our conditional request: keep the stored document (unchanged). */
  notModified: boolean;
  /**
   * Call with the page's rel=canonical (once parsed, before storing): false means another page of
   * this run already produced that document, so do not store this one; the crawler then reports the
   * page as skipped 'duplicate'. True means the canonical is now taken by this page (store the
   * document under it or under finalUrl, as you like). Returning the canonical in PageOutcome does
   * the same claim afterwards, too late to prevent the write.
   */
  claimCanonical?: (canonicalUrl: string) => boolean;
}

/**
 * What the pipeline tells the crawler after processing a page. For a `notModified` page, return the
 * links you have stored if any (the crawler adds PreviousFetch.links itself), or none.
 */
export interface PageOutcome {
  /** Absolute links found in the page (the crawler normalizes and scopes them). */
  links: string[];
  /** The page's rel=canonical, if any; the crawler treats it as already seen. */
  canonicalUrl?: string | null;
}

export type CrawlEvent =
  | { type: 'skipped'; url: string; reason: 'robots' | 'scope' | 'content_type' | 'size' | 'max_pages' | 'duplicate' }
  | { type: 'failed'; url: string; status: number | null; reason: string }
  | { type: 'discovered'; url: string; depth: number };

export interface CrawlSummary {
  pagesDiscovered: number;
  pagesFetched: number;
  pagesSkipped: number;
  pagesFailed: number;
  bytes: number;
}

// ---- extract ----
export interface ParsedPage {
  url: string;
  canonicalUrl: string | null;
  title: string;
  description: string | null;
  language: string | null;
  /** Main content as markdown: headings, lists, code blocks and tables kept. */
  markdown: string;
  links: string[];
}

// ---- chunk ----
export interface ChunkDraft {
  position: number;
  text: string;
  headingPath: string[];
  tokens: number;
}

// ---- embed ----
export interface Embedder {
  /** Stable id of provider + model + dimensions: vectors from different ids never mix. */
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[], purpose: 'document' | 'query'): Promise<Float32Array[]>;
}

// ---- index / search ----
export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

export interface SearchHit {
  chunkId: string;
  documentId: string;
  sourceId: string;
  url: string;
  title: string;
  headingPath: string[];
  text: string;
  score: number;
}
