/**
 * DOM -> markdown. A single recursive walk over the (already cleaned) content element: block
 * elements become markdown blocks, everything else is inline text. Written here instead of
 * turndown because one walk with no rule table is several times faster on large pages and lets
 * the boilerplate rules (see boilerplate.ts) run during the same walk.
 */
import { isBoilerplate } from './boilerplate.js';
import { isJunkParagraph, isLinkList } from './prune.js';

/** The subset of the DOM the serializer reads; linkedom's nodes satisfy it. */
export interface DomNode {
  nodeType: number;
  nodeValue: string | null;
  firstChild: DomNode | null;
  nextSibling: DomNode | null;
  parentNode: DomNode | null;
  textContent: string | null;
  localName?: string;
  getAttribute?(name: string): string | null;
}

const ELEMENT = 1;
const TEXT = 3;

const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'dd', 'details', 'dialog', 'dir', 'div', 'dl',
  'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header',
  'hgroup', 'hr', 'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td',
  'tfoot', 'th', 'thead', 'tr', 'ul', 'caption',
]);

const DROP = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'canvas', 'iframe', 'object', 'embed', 'video',
  'audio', 'img', 'picture', 'source', 'track', 'map', 'button', 'input', 'select', 'textarea', 'option',
  'link', 'meta', 'head', 'title',
]);

export interface MarkdownOptions {
  /** Resolves link targets; return null to keep only the link text. */
  resolveHref?: (href: string) => string | null;
  /** Skip navigation/footer/share chrome while walking (see boilerplate.ts). */
  dropBoilerplate?: boolean;
  /** Drop link-only paragraphs and lists, captions, labels (see prune.ts): for article pages. */
  pruneBlocks?: boolean;
}

const LIST_START = /^(?:[-*+]|\d+\.) /;
const CHROME_LINK = /^(?:edit (?:this page|on github|page)|improve this (?:page|doc)|suggest an? (?:edit|change)|view (?:page )?source|show source|report an? (?:issue|bug)|back to top|skip to (?:main )?content)$/i;
const collapse = (s: string) => s.replace(/[ \t\r\n\f\u00a0]+/g, ' ');

export class MarkdownWriter {
  constructor(private readonly options: MarkdownOptions = {}) {}

  render(root: DomNode): string {
    return this.blocks(root).join('\n\n').replace(/\n{3,}/g, '\n\n').trim();
  }

  private skip(el: DomNode, tag: string): boolean {
    if (DROP.has(tag)) return true;
    return this.options.dropBoilerplate === true && isBoilerplate(el, tag);
  }

  /** The children of `parent` as markdown blocks; inline runs between blocks become paragraphs. */
  private blocks(parent: DomNode): string[] {
    const out: string[] = [];
    let para = '';
    const flush = () => {
      const text = para.replace(/ *\n */g, '\n').trim();
      if (text && !(this.options.pruneBlocks && isJunkParagraph(text))) out.push(text);
      para = '';
    };
    for (let n = parent.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === TEXT) {
        para += collapse(n.nodeValue ?? '');
        continue;
      }
      if (n.nodeType !== ELEMENT) continue;
      const tag = n.localName ?? '';
      if (this.skip(n, tag)) continue;
      if (BLOCK.has(tag) || hasBlockChild(n)) {
        flush();
        const block = this.block(n, tag);
        if (block) out.push(...(Array.isArray(block) ? block : [block]));
      } else {
        para += this.inlineElement(n, tag);
      }
    }
    flush();
    return out;
  }

  private block(el: DomNode, tag: string): string | string[] | null {
    switch (tag) {
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': {
        const text = this.inline(el).replace(/\s+/g, ' ').trim();
        return text ? `${'#'.repeat(Number(tag[1]))} ${text}` : null;
      }
      case 'pre':
        return this.codeBlock(el);
      case 'ul': case 'ol': case 'menu': case 'dir': {
        const list = this.list(el, tag === 'ol');
        return list && this.options.pruneBlocks && isLinkList(list) ? null : list;
      }
      case 'blockquote': {
        const inner = this.blocks(el).join('\n\n');
        return inner ? inner.split('\n').map((l) => (l ? `> ${l}` : '>')).join('\n') : null;
      }
      case 'table':
        return this.table(el);
      case 'hr':
        return '---';
      case 'dt': {
        const text = this.inline(el).trim();
        return text ? `**${text.replace(/\*\*/g, '')}**` : null;
      }
      default:
        return this.blocks(el);
    }
  }

  private codeBlock(pre: DomNode): string | null {
    const code = (pre.textContent ?? '').replace(/\n+$/, '').replace(/^\n+/, '');
    if (!code.trim()) return null;
    const lang = codeLanguage(pre);
    let fence = '```';
    while (code.includes(fence)) fence += '`';
    return `${fence}${lang}\n${code}\n${fence}`;
  }

  private list(el: DomNode, ordered: boolean): string | null {
    const items: string[] = [];
    let index = ordered ? Number(el.getAttribute?.('start') ?? 1) || 1 : 1;
    for (let li = el.firstChild; li; li = li.nextSibling) {
      if (li.nodeType !== ELEMENT) continue;
      const tag = li.localName ?? '';
      if (this.skip(li, tag)) continue;
      const body = tag === 'li' ? this.blocks(li) : (this.block(li, tag) ?? []);
      const parts = Array.isArray(body) ? body : [body];
      if (tag !== 'li') {
        // stray block in a list (e.g. a nested <ul> directly under <ul>): indent it under the previous item
        const text = parts.join('\n\n');
        if (text && items.length) items[items.length - 1] += '\n' + indent(text, '  ');
        else if (text) items.push(text);
        continue;
      }
      // a nested list follows its item's text directly, keeping the list tight
      const text = parts.reduce((acc, part) => (acc ? acc + (LIST_START.test(part) ? '\n' : '\n\n') + part : part), '').trim();
      if (!text) continue;
      const marker = ordered ? `${index++}. ` : '- ';
      items.push(marker + indent(text, ' '.repeat(marker.length)).slice(marker.length));
    }
    return items.length ? items.join('\n') : null;
  }

  private table(table: DomNode): string | string[] | null {
    const rows: string[][] = [];
    const collectRows = (node: DomNode) => {
      for (let n = node.firstChild; n; n = n.nextSibling) {
        if (n.nodeType !== ELEMENT) continue;
        const tag = n.localName;
        if (tag === 'tr') rows.push(this.cells(n));
        else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') collectRows(n);
      }
    };
    collectRows(table);
    const width = Math.max(0, ...rows.map((r) => r.length));
    // one-column or nested tables are layout, not data: keep their content as plain blocks
    if (width < 2 || rows.length === 0 || hasNestedTable(table)) return this.blocks(table);
    const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
    const [head, ...body] = rows;
    return [line(head!), line(Array(width).fill('---')), ...body.map(line)].join('\n');
  }

  private cells(tr: DomNode): string[] {
    const cells: string[] = [];
    for (let c = tr.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== ELEMENT || (c.localName !== 'td' && c.localName !== 'th')) continue;
      const text = this.blocks(c).join(' ').replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();
      cells.push(text);
      const span = Number(c.getAttribute?.('colspan') ?? 1);
      for (let i = 1; i < Math.min(span, 20); i++) cells.push('');
    }
    return cells;
  }

  /** Inline markdown for the children of `el`. */
  private inline(el: DomNode): string {
    let s = '';
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === TEXT) s += collapse(n.nodeValue ?? '');
      else if (n.nodeType === ELEMENT) {
        const tag = n.localName ?? '';
        if (!this.skip(n, tag)) s += BLOCK.has(tag) ? ` ${this.inline(n)} ` : this.inlineElement(n, tag);
      }
    }
    return s;
  }

  private inlineElement(el: DomNode, tag: string): string {
    switch (tag) {
      case 'br':
        return '\n';
      case 'code': case 'kbd': case 'samp': case 'tt': {
        const text = collapse(el.textContent ?? '');
        if (!text.trim()) return text;
        const tick = text.includes('`') ? '`` ' : '`';
        return tick + text + (tick === '`' ? '`' : ' ``');
      }
      case 'em': case 'i': case 'cite': case 'var':
        return wrap(this.inline(el), '*');
      case 'strong': case 'b':
        return wrap(this.inline(el), '**');
      case 'a':
        return this.link(el);
      default:
        return this.inline(el);
    }
  }

  private link(a: DomNode): string {
    const text = this.inline(a);
    const href = a.getAttribute?.('href')?.trim();
    if (!text.trim()) return text;
    // permalink markers next to headings ("¶", "#") are chrome, not content
    if (href?.startsWith('#') && /^\s*[¶#§🔗]\s*$/u.test(text)) return '';
    if (CHROME_LINK.test(text.trim())) return '';
    if (!href || href.startsWith('#') || /^(javascript|mailto|tel|data):/i.test(href)) return text;
    const target = this.options.resolveHref ? this.options.resolveHref(href) : href;
    if (!target) return text;
    const { lead, core, trail } = splitSpace(text);
    return `${lead}[${core.replace(/([[\]])/g, '\\$1')}](${target.replace(/[()\s]/g, encodeURIComponent)})${trail}`;
  }
}

function splitSpace(text: string) {
  const lead = /^\s*/.exec(text)![0];
  const trail = /\s*$/.exec(text)![0];
  return { lead, core: text.slice(lead.length, text.length - trail.length), trail };
}

function wrap(text: string, mark: string): string {
  const { lead, core, trail } = splitSpace(text);
  if (!core || core.includes('\n')) return text;
  return `${lead}${mark}${core}${mark}${trail}`;
}

function indent(text: string, pad: string): string {
  return text.split('\n').map((l) => (l ? pad + l : l)).join('\n');
}

function hasNestedTable(table: DomNode): boolean {
  const walk = (n: DomNode): boolean => {
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== ELEMENT) continue;
      if (c.localName === 'table' || walk(c)) return true;
    }
    return false;
  };
  return walk(table);
}

const LANG_CLASS = /(?:^|\s)(?:language|lang|highlight)-([\w+#.-]+)|brush:\s*([\w+#.-]+)/;

/** The code language from `class="language-x"` on <code>, <pre> or the highlight wrapper around it. */
function codeLanguage(pre: DomNode): string {
  const candidates: (DomNode | null)[] = [firstElementChild(pre), pre, pre.parentNode, pre.parentNode?.parentNode ?? null];
  for (const node of candidates) {
    const cls = node?.getAttribute?.('class') ?? '';
    const m = LANG_CLASS.exec(cls);
    const lang = m?.[1] ?? m?.[2];
    if (lang && !/^(default|none|text|plain|nohighlight)$/i.test(lang)) return lang.toLowerCase();
    const data = node?.getAttribute?.('data-lang') ?? node?.getAttribute?.('data-language');
    if (data) return data.toLowerCase();
  }
  return '';
}

function firstElementChild(n: DomNode): DomNode | null {
  for (let c = n.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT) return c;
  return null;
}

/** An inline element wrapping paragraphs (<span><p>..</p><p>..</p></span>) is a block container. */
function hasBlockChild(el: DomNode): boolean {
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT && BLOCK.has(c.localName ?? '')) return true;
  return false;
}
