/**
 * Structure-aware chunking of a page's markdown:
 *   - headings open sections (each chunk carries its heading path); a small chunk runs on into
 *     the next section instead of standing alone;
 *   - inside a section whole blocks (paragraph, list, table, code) are packed up to targetTokens;
 *     a block is split only when it alone exceeds maxTokens — code by lines, tables by rows with the
 *     header repeated, lists by items, prose by sentences;
 *   - a chunk that continues a section starts with ~overlapTokens of the previous chunk's tail
 *     (whole sentences or blocks, never part of a code block or table);
 *   - each chunk's text starts with its heading context ("Tutorial > Modules") unless it opens with
 *     that heading itself, so a chunk retrieved alone still says what it is about.
 */
import type { ChunkDraft } from '../contracts.js';
import { parseBlocks, sentencesOf, splitBlock, type Block } from './blocks.js';
import { countTokens } from './tokens.js';

export interface ChunkOptions {
  targetTokens?: number;
  overlapTokens?: number;
  /** A block larger than this is split; default 2 × targetTokens. */
  maxTokens?: number;
  /** Page title: prefixed to the heading context when the headings do not already start with it. */
  title?: string;
  /** Prefix each chunk with its heading context (default true). */
  headingContext?: boolean;
}

interface Part {
  text: string;
  tokens: number;
  kind: Block['kind'];
}

interface Draft {
  path: string[];
  parts: Part[];
  tokens: number;
  /** Overlap parts copied from the previous chunk (they do not count as new content). */
  overlap: number;
}

export function chunkMarkdown(markdown: string, options: ChunkOptions = {}): ChunkDraft[] {
  const target = Math.max(1, options.targetTokens ?? 400);
  const overlap = Math.max(0, Math.min(options.overlapTokens ?? 50, Math.floor(target / 2)));
  const max = Math.max(target, options.maxTokens ?? target * 2);
  const drafts: Draft[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: Draft = { path: [], parts: [], tokens: 0, overlap: 0 };
  let sectionPath: string[] = [];

  const emit = () => {
    if (current.parts.length > current.overlap) drafts.push(current);
  };
  const add = (part: Part) => {
    if (current.parts.length > current.overlap && current.tokens + part.tokens > target) {
      emit();
      let tail = tailOf(current.parts, overlap);
      if (sum(tail) + part.tokens > max) tail = []; // the overlap must not push a chunk past the maximum
      current = { path: sectionPath, parts: tail, tokens: sum(tail), overlap: tail.length };
    }
    current.parts.push(part);
    current.tokens += part.tokens;
  };

  for (const block of parseBlocks(markdown)) {
    if (block.kind === 'heading') {
      while (stack.length && stack.at(-1)!.level >= block.level!) stack.pop();
      stack.push({ level: block.level!, text: block.heading! });
      const path = stack.map((h) => h.text);
      sectionPath = path;
      const part = { text: block.text, tokens: countTokens(block.text), kind: block.kind };
      const fresh = current.parts.length === current.overlap;
      if (fresh || current.tokens + part.tokens > target || current.tokens >= target / 4) {
        emit();
        current = { path, parts: [], tokens: 0, overlap: 0 };
      } else {
        current.path = commonPrefix(current.path, path); // a small chunk runs on into this section
      }
      current.parts.push(part);
      current.tokens += part.tokens;
      continue;
    }
    const tokens = countTokens(block.text);
    if (tokens <= max) add({ text: block.text, tokens, kind: block.kind });
    else for (const piece of splitBlock(block, target)) add({ text: piece, tokens: countTokens(piece), kind: block.kind });
  }
  emit();

  return drafts.map((draft, position) => {
    const body = draft.parts.map((p) => p.text).join('\n\n');
    const text = withContext(body, draft, options);
    return { position, text, headingPath: draft.path, tokens: countTokens(text) };
  });
}

/** The last whole blocks, or the last sentences of a prose block, within `budget` tokens. */
function tailOf(parts: Part[], budget: number): Part[] {
  const out: Part[] = [];
  let left = budget;
  for (let i = parts.length - 1; i >= 0 && left > 0; i--) {
    const part = parts[i]!;
    if (part.kind === 'heading') break;
    if (part.tokens <= left) {
      out.unshift(part);
      left -= part.tokens;
      continue;
    }
    if (part.kind === 'paragraph' || part.kind === 'quote') {
      const kept: string[] = [];
      for (const sentence of sentencesOf(part.text).reverse()) {
        const n = countTokens(sentence);
        if (n > left) break;
        kept.unshift(sentence);
        left -= n;
      }
      if (kept.length) out.unshift({ text: kept.join(' '), tokens: countTokens(kept.join(' ')), kind: part.kind });
    }
    break;
  }
  return out;
}

function withContext(body: string, draft: Draft, options: ChunkOptions): string {
  if (options.headingContext === false) return body;
  const opensWithHeading = draft.parts[0]?.kind === 'heading' && draft.overlap === 0;
  const path = opensWithHeading ? draft.path.slice(0, -1) : draft.path;
  const title = options.title?.trim();
  const context = title && draft.path[0] !== title && !(title.startsWith(draft.path[0] ?? '\0')) ? [title, ...path] : path;
  return context.length ? `${context.join(' > ')}\n\n${body}` : body;
}

function commonPrefix(a: string[], b: string[]): string[] {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

const sum = (parts: Part[]) => parts.reduce((n, p) => n + p.tokens, 0);
