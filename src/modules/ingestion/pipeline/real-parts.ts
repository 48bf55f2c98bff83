import type { AppContext } from '../../../kernel/context.js';
import type { WebSourceConfig } from '../../sources/source-types.js';
import type { IngestionSettings } from '../config.js';
import { crawl, crawlSettings } from '../crawl/index.js';
import type { IndexService } from '../index/service.js';
import type { PipelineParts, RunIndex } from './parts.js';
import { createEmbedder } from '../embed/settings.js';
import { embeddingText } from '../index/service.js';
import { PreparePool } from './prepare-pool.js';
import { createPrepare, type PrepareOptions } from './prepare.js';

/** The index module's service as the pipeline uses it. */
function indexAdapter(index: IndexService): RunIndex {
  return {
    previousFetches: (sourceId) => index.previousFetches(sourceId),
    async upsertDocuments(docs) {
      await index.upsertDocuments(
        docs.map((d) => ({
          sourceId: d.sourceId,
          projectId: d.projectId,
          runId: d.runId,
          url: d.page.finalUrl || d.page.url,
          page: d.prepared.parsed,
          hash: d.prepared.hash,
          etag: d.page.etag,
          lastModified: d.page.lastModified,
          chunks: d.prepared.chunks,
          vectors: d.vectors,
        })),
      );
    },
    markSeen: (sourceId, runId, pages) => index.markSeen(sourceId, pages.map((p) => p.url), runId),
    removeMissing: (sourceId, runId) => index.removeMissing(sourceId, runId),
    counts: (sourceId) => index.sourceTotals(sourceId),
  };
}

/** Builds the crawl → extract → chunk → embed → index parts for this process. */
export function createPipelineParts(_ctx: AppContext, settings: IngestionSettings, index: IndexService): PipelineParts {
  const crawlConfig = crawlSettings(settings.crawl);
  const builtin = ((settings.embedder.provider as string | undefined) ?? 'builtin') === 'builtin';
  const options: PrepareOptions = { chunking: settings.chunking, embedder: settings.embedder, embedInWorker: index.vectorsEnabled && builtin };
  const threads = PreparePool.threadsFor(settings.parseThreads);
  let pool: PreparePool | undefined;
  const inline = threads === 0 ? createPrepare(options, options.embedInWorker ? createEmbedder(settings.embedder) : null, embeddingText) : null;
  return {
    crawl: (req) =>
      crawl({ seeds: req.seeds, config: req.config as unknown as WebSourceConfig, settings: crawlConfig, previous: req.previous, signal: req.signal, onPage: req.onPage, onEvent: req.onEvent }),
    prepare: (page) => (inline ? inline(page) : (pool ??= new PreparePool(threads, options)).run(page)),
    // The index embeds each batch in one call (title + headings + text), so the pipeline need not.
    embedder: null,
    index: indexAdapter(index),
    close: async () => pool?.close(),
  };
}
