/**
 * One walk over the whole parsed document that collects everything the pipeline needs besides
 * the content: links, canonical, title, description, language, plus the semantic content
 * candidates (<main>, role=main, <article>). Doing it in one pass avoids a tree walk per selector.
 */
import type { DomNode } from './markdown.js';

export interface PageScan {
  baseUrl: string;
  links: string[];
  canonicalUrl: string | null;
  title: string;
  ogTitle: string | null;
  firstH1: string | null;
  description: string | null;
  language: string | null;
  mains: DomNode[];
  articles: DomNode[];
  /** The page calls itself an article (og:type or JSON-LD): Readability is built for exactly that. */
  declaresArticle: boolean;
}

const ELEMENT = 1;
const LD_ARTICLE = /"@type"\s*:\s*\[?\s*"(?:News|Blog|Scholarly|Tech)?(?:Article|Posting)"/i;

/** Resolves `href` against `base`; only http(s), fragment dropped (it names no other page). */
export function absoluteHttpUrl(href: string, base: string): string | null {
  try {
    const u = new URL(href.trim(), base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

export function scanPage(root: DomNode, pageUrl: string): PageScan {
  const hrefs: string[] = [];
  const scan: PageScan = {
    baseUrl: pageUrl, links: [], canonicalUrl: null, title: '', ogTitle: null, firstH1: null,
    description: null, language: null, mains: [], articles: [], declaresArticle: false,
  };
  let canonicalHref = null as string | null;
  let baseHref = null as string | null;
  let ogDescription = null as string | null;
  let contentLanguage = null as string | null;
  let titleSeen = false;

  const visit = (el: DomNode) => {
    const tag = el.localName;
    const get = (name: string) => el.getAttribute!(name);
    switch (tag) {
      case 'a': {
        const href = get('href');
        if (href) hrefs.push(href);
        break;
      }
      case 'html':
        scan.language = get('lang')?.trim() || get('xml:lang')?.trim() || null;
        break;
      case 'base':
        if (baseHref === null) baseHref = get('href');
        break;
      case 'title':
        if (!titleSeen) scan.title = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
        titleSeen = true;
        return; // no elements inside
      case 'link':
        if (canonicalHref === null && /(^|\s)canonical(\s|$)/i.test(get('rel') ?? '')) canonicalHref = get('href');
        return;
      case 'meta': {
        const key = (get('property') ?? get('name') ?? '').toLowerCase();
        const content = get('content')?.trim() || null;
        if (key === 'og:title' && content) scan.ogTitle ??= content;
        else if (key === 'description' && content) scan.description ??= content;
        else if (key === 'og:description' && content) ogDescription ??= content;
        else if (key === 'og:type' && content && /article|news|blog/i.test(content)) scan.declaresArticle = true;
        else if ((get('http-equiv') ?? '').toLowerCase() === 'content-language' && content) contentLanguage ??= content;
        return;
      }
      case 'main':
        scan.mains.push(el);
        break;
      case 'article':
        scan.articles.push(el);
        break;
      case 'h1':
        scan.firstH1 ??= (el.textContent ?? '').replace(/\s+/g, ' ').trim() || null;
        break;
      case 'script':
        if (!scan.declaresArticle && get('type') === 'application/ld+json' && LD_ARTICLE.test(el.textContent ?? '')) {
          scan.declaresArticle = true;
        }
        return;
      case 'style': case 'svg': case 'template': case 'noscript':
        return;
    }
    if (tag !== 'main' && get('role') === 'main') scan.mains.push(el);
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT) visit(c);
  };
  visit(root);

  if (baseHref) scan.baseUrl = absoluteHttpUrl(baseHref, pageUrl) ?? pageUrl;
  const seen = new Set<string>();
  for (const href of hrefs) {
    if (href.startsWith('#') || /^(javascript|mailto|tel|data):/i.test(href)) continue;
    const abs = absoluteHttpUrl(href, scan.baseUrl);
    if (abs && !seen.has(abs)) {
      seen.add(abs);
      scan.links.push(abs);
    }
  }
  if (canonicalHref) scan.canonicalUrl = absoluteHttpUrl(canonicalHref, scan.baseUrl);
  scan.description ??= ogDescription;
  scan.language ??= contentLanguage?.split(',')[0]?.trim() || null;
  return scan;
}
