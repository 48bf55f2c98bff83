/**
 * Chooses the main content of a parsed document and renders it as markdown:
 *   1. on pages that do not declare themselves articles (og:type, JSON-LD), a semantic container
 *      (<main>, role=main, a lone <article>) when it holds real text — fast, and keeps everything
 *      on documentation sites, where Readability's pruning drops short code blocks and tables;
 *   2. otherwise Mozilla Readability's scored candidate;
 *   3. otherwise (Readability finds nothing) the whole body, with chrome dropped.
 * Chrome inside the chosen element is dropped while rendering (boilerplate.ts).
 */
import { Readability } from '@mozilla/readability';
import { MarkdownWriter, type DomNode, type MarkdownOptions } from './markdown.js';
import type { PageScan } from './page-scan.js';

/** Below this many characters of rendered markdown a candidate is not the page's content. */
const MIN_CONTENT_CHARS = 200;

export type ContentStrategy = 'semantic' | 'readability' | 'body';

export interface ExtractedContent {
  markdown: string;
  strategy: ContentStrategy;
}

export function extractContent(document: Document, scan: PageScan, options: MarkdownOptions): ExtractedContent {
  const writer = new MarkdownWriter({ ...options, dropBoilerplate: true });
  const articleWriter = new MarkdownWriter({ ...options, dropBoilerplate: true, pruneBlocks: true });
  const semantic = scan.declaresArticle ? null : semanticCandidate(scan);
  if (semantic) {
    const markdown = writer.render(semantic);
    if (markdown.length >= MIN_CONTENT_CHARS) return { markdown, strategy: 'semantic' };
  }
  const body = document.body as unknown as DomNode | null;
  let article: DomNode | null = null;
  try {
    article = new Readability<DomNode>(document, { keepClasses: true, serializer: (n) => n as unknown as DomNode })
      .parse()?.content ?? null;
  } catch {
    article = null; // a malformed tree must not lose the page; the body fallback still works
  }
  const fromReadability = article ? articleWriter.render(article) : '';
  if (fromReadability.length >= MIN_CONTENT_CHARS || !body) return { markdown: fromReadability, strategy: 'readability' };
  // Readability ran on (and pruned) this same document; what it left in the body is still the text.
  const fromBody = writer.render(body);
  return fromBody.length > fromReadability.length
    ? { markdown: fromBody, strategy: 'body' }
    : { markdown: fromReadability, strategy: 'readability' };
}

function semanticCandidate(scan: PageScan): DomNode | null {
  if (scan.mains.length === 1) return scan.mains[0]!;
  if (scan.mains.length === 0 && scan.articles.length === 1) return scan.articles[0]!;
  return null;
}
