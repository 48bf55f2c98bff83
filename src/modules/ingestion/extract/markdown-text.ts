/**
 * Markdown -> plain text: drops the syntax our serializer emits (heading marks, list markers,
 * quote marks, fences, table rules and pipes, link targets, emphasis and code ticks) and keeps the
 * words. Used to score extraction against plain-text ground truth and wherever a caller wants text.
 */
export function markdownToText(markdown: string): string {
  const out: string[] = [];
  let inFence = false;
  for (const raw of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(raw)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      out.push(raw);
      continue;
    }
    let line = raw
      .replace(/^\s*(?:>\s?)+/, '')
      .replace(/^\s*#{1,6}\s+/, '')
      .replace(/^\s*(?:[-*+]|\d+\.)\s+/, '');
    if (/^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*$/.test(line) || /^\s*---\s*$/.test(line)) continue;
    line = line
      .replace(/!?\[((?:\\.|[^\]\\])*)\]\([^)\s]*\)/g, '$1')
      .replace(/\\([[\]|*_`\\])/g, '$1')
      .replace(/(\*\*|`+)/g, '')
      .replace(/(^|[\s(])\*(\S)/g, '$1$2')
      .replace(/(\S)\*($|[\s).,;:!?])/g, '$1$2');
    if (/^\s*\|.*\|\s*$/.test(line)) line = line.trim().slice(1, -1).split(' | ').map((c) => c.trim()).join('\t');
    out.push(line);
  }
  return out.join('\n');
}
