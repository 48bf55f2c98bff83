import { parseHTML } from 'linkedom';
import type { ParsedPage } from '../contracts.js';
import { extractContent, type ContentStrategy } from './content.js';
import type { DomNode } from './markdown.js';
import { absoluteHttpUrl, scanPage } from './page-scan.js';

export interface ParsedPageDetails extends ParsedPage {
  /** Which extractor produced the markdown (for diagnostics and the eval script). */
  strategy: ContentStrategy;
}

/** One parse per page: links and metadata first (Readability prunes the tree), then the content. */
export function parsePage(html: string, url: string): ParsedPageDetails {
  let { document } = parseHTML(html);
  // linkedom builds no <html>/<body> for fragments; wrapping costs a second parse only for those
  if (document.documentElement?.localName !== 'html') document = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`).document;
  const root = document.documentElement as unknown as DomNode | null;
  const scan = root ? scanPage(root, url) : emptyScan(url);
  const resolveHref = (href: string) => absoluteHttpUrl(href, scan.baseUrl);
  const content = root ? extractContent(document as unknown as Document, scan, { resolveHref }) : { markdown: '', strategy: 'body' as const };
  const title = scan.ogTitle || scan.title || scan.firstH1 || firstHeading(content.markdown) || url;
  return {
    url,
    canonicalUrl: scan.canonicalUrl,
    title,
    description: scan.description,
    language: scan.language,
    markdown: content.markdown,
    links: scan.links,
    strategy: content.strategy,
  };
}

function emptyScan(url: string) {
  return scanPage({ nodeType: 1, nodeValue: null, firstChild: null, nextSibling: null, parentNode: null, textContent: '', localName: 'html', getAttribute: () => null }, url);
}

function firstHeading(markdown: string): string | null {
  const m = /^#{1,6} (.+)$/m.exec(markdown);
  return m ? m[1]!.trim() : null;
}
