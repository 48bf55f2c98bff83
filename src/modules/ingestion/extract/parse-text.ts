import type { ParsedPage } from '../contracts.js';
import { absoluteHttpUrl } from './page-scan.js';

const MD_LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const BARE_URL = /\bhttps?:\/\/[^\s<>()"'`\]]+[^\s<>()"'`\].,;:!?]/g;

/**
 * `text/plain` and `text/markdown` bodies: the markdown is the body itself (plain text is valid
 * markdown, and reformatting it would only lose structure), the title its first heading or line.
 */
export function parseText(body: string, url: string, contentType: string): ParsedPage {
  const markdownInput = /markdown/i.test(contentType);
  const text = body.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').trim();
  const links: string[] = [];
  const seen = new Set<string>();
  const add = (href: string) => {
    const abs = absoluteHttpUrl(href, url);
    if (abs && !seen.has(abs)) {
      seen.add(abs);
      links.push(abs);
    }
  };
  if (markdownInput) for (const m of text.matchAll(MD_LINK)) add(m[1]!);
  for (const m of text.matchAll(BARE_URL)) add(m[0]);
  return {
    url,
    canonicalUrl: null,
    title: titleOf(text, markdownInput) || url,
    description: null,
    language: null,
    markdown: text,
    links,
  };
}

function titleOf(text: string, markdownInput: boolean): string {
  if (markdownInput) {
    const atx = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(text);
    if (atx) return atx[1]!.trim();
    const setext = /^(.+)\n(?:=+|-+)\s*$/m.exec(text);
    if (setext) return setext[1]!.trim();
  }
  const first = text.split('\n').find((l) => l.trim()) ?? '';
  const line = first.replace(/^#+\s*/, '').trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
