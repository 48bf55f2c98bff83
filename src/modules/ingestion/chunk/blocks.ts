/**
 * Markdown -> blocks the chunker may not split: headings, fenced code, tables, lists, quotes and
 * paragraphs. Also the fallback splitters for a block larger than the maximum chunk size.
 */
import { countTokens } from './tokens.js';

export type BlockKind = 'heading' | 'code' | 'table' | 'list' | 'quote' | 'paragraph';

export interface Block {
  kind: BlockKind;
  text: string;
  /** Heading level and text, for `heading` blocks. */
  level?: number;
  heading?: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])\s/;

export function parseBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let buffer: string[] = [];
  const flush = () => {
    if (buffer.length) {
      const text = buffer.join('\n');
      const first = buffer[0]!;
      const kind: BlockKind = LIST_ITEM.test(first) ? 'list' : /^ {0,3}>/.test(first) ? 'quote' : 'paragraph';
      blocks.push({ kind, text });
    }
    buffer = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1]!;
      const code = [line];
      for (i++; i < lines.length; i++) {
        code.push(lines[i]!);
        if (lines[i]!.trim().startsWith(marker) && lines[i]!.trim().replace(/[`~]/g, '') === '') break;
      }
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', text: line.trim(), level: heading[1]!.length, heading: heading[2]!.replace(/[*`]/g, '') });
      continue;
    }
    if (line.trimStart().startsWith('|')) {
      flush();
      const rows = [line];
      while (i + 1 < lines.length && lines[i + 1]!.trimStart().startsWith('|')) rows.push(lines[++i]!);
      blocks.push({ kind: 'table', text: rows.join('\n') });
      continue;
    }
    if (!line.trim()) flush();
    else buffer.push(line);
  }
  flush();
  return blocks;
}

/** Pieces of an oversized block, each at most `limit` tokens where the content allows. */
export function splitBlock(block: Block, limit: number): string[] {
  const lines = block.text.split('\n');
  switch (block.kind) {
    case 'code': {
      const open = lines[0]!;
      const closed = lines.length > 1 && FENCE.test(lines.at(-1)!);
      const close = closed ? lines.at(-1)! : open.replace(/[^`~].*$/, '');
      const body = lines.slice(1, closed ? -1 : undefined);
      return pack(body, limit - countTokens(open) - countTokens(close), '\n').map((part) => `${open}\n${part}\n${close}`);
    }
    case 'table': {
      const header = lines.slice(0, Math.min(2, lines.length));
      const rows = lines.slice(header.length);
      const head = header.join('\n');
      return pack(rows, limit - countTokens(head), '\n').map((part) => `${head}\n${part}`);
    }
    case 'list': {
      const items: string[] = [];
      for (const line of lines) {
        if (LIST_ITEM.test(line) || items.length === 0) items.push(line);
        else items[items.length - 1] += `\n${line}`;
      }
      return pack(items.flatMap((item) => (countTokens(item) > limit ? splitProse(item, limit) : [item])), limit, '\n');
    }
    default:
      return splitProse(block.text, limit);
  }
}

/** Sentences, then words when a single sentence is still too long. */
export function splitProse(text: string, limit: number): string[] {
  const sentences = sentencesOf(text).flatMap((s) => {
    if (countTokens(s) <= limit) return [s];
    const words = s.split(/\s+/);
    return pack(words, limit, ' ');
  });
  return pack(sentences, limit, ' ');
}

export function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?]["')\]]?)\s+(?=[\p{Lu}\p{N}"'(\[*`])|\n+/u).filter((s) => s.trim());
}

/** Greedily joins items while they fit in `limit` tokens; an item alone may exceed it. */
function pack(items: string[], limit: number, joiner: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const item of items) {
    const n = countTokens(item);
    if (current.length && size + n > limit) {
      out.push(current.join(joiner));
      current = [];
      size = 0;
    }
    current.push(item);
    size += n;
  }
  if (current.length) out.push(current.join(joiner));
  return out;
}
