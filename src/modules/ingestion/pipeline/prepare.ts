import { createHash } from 'node:crypto';
import type { ChunkDraft, Embedder, ParsedPage } from '../contracts.js';
import { chunkMarkdown, type ChunkSettings } from '../chunk/index.js';
import { parsePage, parseText } from '../extract/index.js';
import type { PreparedPage } from './parts.js';

export type ChunkFn = (markdown: string, title: string) => ChunkDraft[];

const isHtml = (contentType: string, body: string) => /html|xml/i.test(contentType) || (!contentType && /^\s*</.test(body));

export interface PrepareTask {
  url: string;
  body: string;
  contentType: string;
  /** The stored hash: when the new one matches, chunking and embedding are skipped. */
  previousHash?: string | null;
}

export interface PrepareOptions {
  chunking: Partial<ChunkSettings>;
  embedder: Record<string, unknown>;
  /** Compute vectors here (CPU-only embedders); otherwise the index embeds. */
  embedInWorker: boolean;
}

/** Parse once, chunk, hash: the CPU-bound part of a page, kept pure so a worker thread can run it. */
export function preparePage(page: PrepareTask, chunk: ChunkFn): PreparedPage {
  const details = isHtml(page.contentType, page.body) ? parsePage(page.body, page.url) : parseText(page.body, page.url, page.contentType);
  const parsed: ParsedPage = {
    url: details.url,
    canonicalUrl: details.canonicalUrl,
    title: details.title,
    description: details.description,
    language: details.language,
    markdown: details.markdown,
    links: details.links,
  };
  const hash = createHash('sha256').update(parsed.markdown).digest('hex');
  const unchanged = page.previousHash === hash;
  return { parsed, hash, chunks: !unchanged && parsed.markdown.trim() ? chunk(parsed.markdown, parsed.title) : [] };
}

export function chunkerFor(settings: Partial<ChunkSettings>): ChunkFn {
  return (markdown, title) => chunkMarkdown(markdown, { ...settings, title });
}

/** prepare + (optionally) embeddings, as the pool and the inline path both run it. */
export function createPrepare(options: PrepareOptions, embedder: Embedder | null, textOf: (title: string, chunk: ChunkDraft) => string) {
  const chunk = chunkerFor(options.chunking);
  return async (task: PrepareTask): Promise<PreparedPage> => {
    const prepared = preparePage(task, chunk);
    if (embedder && prepared.chunks.length && task.previousHash !== prepared.hash)
      prepared.vectors = await embedder.embed(prepared.chunks.map((c) => textOf(prepared.parsed.title, c)), 'document');
    return prepared;
  };
}
