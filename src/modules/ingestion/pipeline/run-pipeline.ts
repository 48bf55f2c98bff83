import type { FastifyBaseLogger } from 'fastify';
import type { FetchedPage } from '../contracts.js';
import type { DocumentWrite, PipelineParts, PreparedPage } from './parts.js';
import type { ErrorLog, RunStats } from './stats.js';

export interface RunInput {
  runId: string;
  sourceId: string;
  projectId: string;
  seeds: string[];
  config: Record<string, unknown>;
}

export interface RunOutcome {
  status: 'succeeded' | 'failed' | 'cancelled';
  error: string | null;
}

export interface PipelineOptions {
  embedBatchSize: number;
  /** Pages parsed but not yet written; the crawler waits beyond this. */
  maxPendingWrites: number;
}

const SKIP_REASONS = new Set(['robots', 'scope', 'content_type', 'size', 'max_pages']);

/**
 * One run: crawl, and for every fetched page parse once (links go straight back to the crawler),
 * skip what did not change, chunk, embed in batches, write in batches; then drop what vanished.
 */
export async function runPipeline(
  parts: PipelineParts,
  input: RunInput,
  ctx: { signal: AbortSignal; stats: RunStats; errors: ErrorLog; options: PipelineOptions; log: FastifyBaseLogger },
): Promise<RunOutcome> {
  const { stats, errors, signal, options } = ctx;
  const previous = await parts.index.previousFetches(input.sourceId);
  const writer = new BatchWriter(parts, stats, options);
  let seenUnchanged: Array<{ url: string; etag: string | null; lastModified: string | null }> = [];
  const flushSeen = async () => {
    if (!seenUnchanged.length) return;
    const batch = seenUnchanged;
    seenUnchanged = [];
    await parts.index.markSeen(input.sourceId, input.runId, batch);
  };

  const onPage = async (page: FetchedPage) => {
    stats.pagesFetched++;
    stats.bytes += page.bytes;
    const url = page.finalUrl || page.url;
    if (page.notModified) {
      stats.pagesUnchanged++;
      seenUnchanged.push({ url, etag: page.etag, lastModified: page.lastModified });
      if (seenUnchanged.length >= 200) await flushSeen();
      return { links: [] }; // the crawler follows the stored links of a 304 itself
    }
    let prepared: PreparedPage;
    try {
      prepared = await parts.prepare({ url, body: page.body, contentType: page.contentType, previousHash: previous.get(url)?.hash ?? null });
    } catch (err) {
      stats.pagesFailed++;
      errors.add(url, page.status, `could not parse: ${(err as Error).message}`);
      return { links: [] };
    }
    const outcome = { links: prepared.parsed.links, canonicalUrl: prepared.parsed.canonicalUrl };
    if (prepared.parsed.canonicalUrl && page.claimCanonical && !page.claimCanonical(prepared.parsed.canonicalUrl)) {
      stats.pagesFetched--; // another page of this run already produced this document
      return outcome;
    }
    if (previous.get(url)?.hash === prepared.hash) {
      stats.pagesUnchanged++;
      seenUnchanged.push({ url, etag: page.etag, lastModified: page.lastModified });
      if (seenUnchanged.length >= 200) await flushSeen();
      return outcome;
    }
    await writer.add({ sourceId: input.sourceId, projectId: input.projectId, runId: input.runId, page: { ...page, body: '' }, prepared, vectors: prepared.vectors ?? null });
    return outcome;
  };

  const onEvent: Parameters<PipelineParts['crawl']>[0]['onEvent'] = (event) => {
    if (event.type === 'discovered') stats.pagesDiscovered++;
    else if (event.type === 'skipped') {
      if (SKIP_REASONS.has(event.reason)) stats.pagesSkipped++;
    } else if (event.type === 'failed') {
      stats.pagesFailed++;
      errors.add(event.url, event.status, event.reason);
    }
  };

  try {
    await parts.crawl({ seeds: input.seeds, config: input.config, previous, signal, onPage, onEvent });
    await writer.drain();
    await flushSeen();
  } catch (err) {
    if (signal.aborted) return { status: 'cancelled', error: 'The run was cancelled' };
    throw err;
  }
  if (signal.aborted) return { status: 'cancelled', error: 'The run was cancelled' };

  const seen = stats.pagesFetched;
  if (seen === 0) {
    const reason = stats.pagesFailed ? `No page could be fetched (${stats.pagesFailed} failed; see the run's errors)` : 'No page could be fetched: every URL was skipped';
    return { status: 'failed', error: reason };
  }
  const removal = await parts.index.removeMissing(input.sourceId, input.runId);
  stats.pagesRemoved = removal.removed;
  if (removal.skipped) ctx.log.warn({ runId: input.runId }, 'the run saw under half of the indexed pages; kept them all');
  return { status: 'succeeded', error: null };
}

/** Groups pages so embeddings go out in full batches and writes share a transaction. */
class BatchWriter {
  private batch: DocumentWrite[] = [];
  private batchChunks = 0;
  private inFlight = new Set<Promise<void>>();
  private failure: unknown = null;

  constructor(
    private readonly parts: PipelineParts,
    private readonly stats: RunStats,
    private readonly options: PipelineOptions,
  ) {}

  async add(doc: DocumentWrite) {
    if (this.failure) throw this.failure;
    this.batch.push(doc);
    this.batchChunks += doc.prepared.chunks.length;
    if (this.batchChunks >= this.options.embedBatchSize || this.batch.length >= 32) this.flush();
    while (this.inFlight.size * 32 > this.options.maxPendingWrites) await Promise.race(this.inFlight);
    if (this.failure) throw this.failure;
  }

  private flush() {
    if (!this.batch.length) return;
    const docs = this.batch;
    this.batch = [];
    this.batchChunks = 0;
    const task = this.write(docs)
      .catch((err) => {
        this.failure ??= err;
      })
      .finally(() => this.inFlight.delete(task));
    this.inFlight.add(task);
  }

  private async write(docs: DocumentWrite[]) {
    const embedder = this.parts.embedder;
    if (embedder) {
      const texts = docs.flatMap((d) => d.prepared.chunks.map((c) => c.text));
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += this.options.embedBatchSize)
        vectors.push(...(await embedder.embed(texts.slice(i, i + this.options.embedBatchSize), 'document')));
      let at = 0;
      for (const d of docs) {
        d.vectors = vectors.slice(at, at + d.prepared.chunks.length);
        at += d.prepared.chunks.length;
      }
    }
    await this.parts.index.upsertDocuments(docs);
    for (const d of docs) {
      this.stats.documents++;
      this.stats.chunks += d.prepared.chunks.length;
      this.stats.tokens += d.prepared.chunks.reduce((n, c) => n + c.tokens, 0);
    }
  }

  async drain() {
    this.flush();
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
    if (this.failure) throw this.failure;
  }
}
