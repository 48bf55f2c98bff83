import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from './chunk-markdown.js';
import { countTokens } from './tokens.js';
import { ChunkSettings, chunkEnv } from './settings.js';
import { loadConfig } from '../../../kernel/config/load.js';
import Type from 'typebox';

const sentence = (i: number) => `Sentence number ${i} talks about retrieval and chunk boundaries in some detail.`;
const paragraph = (from: number, n = 5) => Array.from({ length: n }, (_, k) => sentence(from + k)).join(' ');
const code = (lines: number) => '```python\n' + Array.from({ length: lines }, (_, i) => `value_${i} = compute(${i}) + offset`).join('\n') + '\n```';

describe('chunkMarkdown', () => {
  const doc = [
    '# Tutorial', paragraph(0, 2),
    '## Modules', paragraph(10, 8), paragraph(20, 8), code(12), paragraph(30, 8),
    '### Packages', paragraph(40, 8), '| a | b |\n| --- | --- |\n| 1 | 2 |', paragraph(50, 3),
    '## Classes', paragraph(60, 4),
  ].join('\n\n');
  const chunks = chunkMarkdown(doc, { targetTokens: 200, overlapTokens: 40 });

  it('numbers chunks in order and counts their tokens', () => {
    expect(chunks.length).toBeGreaterThan(4);
    chunks.forEach((c, i) => {
      expect(c.position).toBe(i);
      expect(c.tokens).toBe(countTokens(c.text));
    });
  });

  it('keeps heading paths, and a small section runs on into the next one under their common path', () => {
    expect(chunks[0]!.headingPath).toEqual(['Tutorial']);
    expect(chunks[0]!.text).toMatch(/^# Tutorial\n\n.*\n\n## Modules/s);
    const packages = chunks.filter((c) => c.headingPath.join('/') === 'Tutorial/Modules/Packages');
    expect(packages.length).toBeGreaterThan(0);
    expect(packages[0]!.text.startsWith('Tutorial > Modules\n\n### Packages')).toBe(true);
    expect(chunks.at(-1)!.headingPath).toEqual(['Tutorial', 'Classes']);
  });

  it('prefixes continuation chunks with their heading context', () => {
    const continuation = chunks.find((c, i) => i > 0 && !/^[^\n]*\n\n#/.test(c.text))!;
    expect(continuation.text.split('\n')[0]).toBe(continuation.headingPath.join(' > '));
  });

  it('never splits a code block or a table that fits', () => {
    for (const c of chunks) {
      expect((c.text.match(/```/g) ?? []).length % 2).toBe(0);
    }
    expect(chunks.filter((c) => c.text.includes(code(12))).length).toBeGreaterThan(0);
    expect(chunks.some((c) => c.text.includes('| a | b |\n| --- | --- |\n| 1 | 2 |'))).toBe(true);
  });

  it('packs whole blocks up to about the target size', () => {
    for (const c of chunks) expect(c.tokens).toBeLessThanOrEqual(200 + 40 + 10);
    const sizes = chunks.slice(0, -1).map((c) => c.tokens);
    expect(Math.max(...sizes)).toBeGreaterThan(120);
  });

  it('starts a continuation chunk with the tail sentences of the previous one', () => {
    let overlaps = 0;
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!;
      const body = chunks[i]!.text.split('\n\n').slice(1).join('\n\n');
      // overlap never cuts into code: after a chunk ending in a code block the next starts fresh
      if (chunks[i]!.headingPath.join() !== prev.headingPath.join() || body.startsWith('#') || prev.text.endsWith('```')) continue;
      const firstSentence = /^Sentence number \d+/.exec(body)?.[0];
      expect(firstSentence, `chunk ${i} starts with overlap`).toBeDefined();
      expect(prev.text).toContain(firstSentence!);
      overlaps++;
    }
    expect(overlaps).toBeGreaterThan(0);
  });

  it('splits an oversized code block by lines, each piece fenced again', () => {
    const big = chunkMarkdown(`# Big\n\n${code(200)}`, { targetTokens: 100, overlapTokens: 0 });
    expect(big.length).toBeGreaterThan(5);
    for (const c of big) {
      expect(c.text).toMatch(/```python\n(value_\d+ = compute\(\d+\) \+ offset\n)+```$/);
      expect(c.tokens).toBeLessThanOrEqual(130);
    }
  });

  it('splits an oversized table by rows and repeats its header', () => {
    const rows = Array.from({ length: 120 }, (_, i) => `| key${i} | value number ${i} |`).join('\n');
    const parts = chunkMarkdown(`| Key | Value |\n| --- | --- |\n${rows}`, { targetTokens: 100, overlapTokens: 20 });
    expect(parts.length).toBeGreaterThan(3);
    for (const c of parts) expect(c.text.startsWith('| Key | Value |\n| --- | --- |\n| key')).toBe(true);
  });

  it('splits one huge paragraph at sentence boundaries', () => {
    const parts = chunkMarkdown(paragraph(0, 60), { targetTokens: 100, overlapTokens: 0 });
    expect(parts.length).toBeGreaterThan(3);
    for (const c of parts) expect(c.text).toMatch(/^Sentence number \d+ .*detail\.$/s);
  });

  it('handles empty input and documents without headings', () => {
    expect(chunkMarkdown('')).toEqual([]);
    expect(chunkMarkdown('Just one line.')).toEqual([{ position: 0, text: 'Just one line.', headingPath: [], tokens: 4 }]);
  });

  it('adds the page title to the context when the headings do not start with it', () => {
    const [first, second] = chunkMarkdown(`## Install\n\n${paragraph(0, 20)}`, { targetTokens: 150, overlapTokens: 0, title: 'Quarry docs' });
    expect(first!.text.startsWith('Quarry docs\n\n## Install')).toBe(true);
    expect(second!.text.startsWith('Quarry docs > Install\n\n')).toBe(true);
  });
});

describe('ChunkSettings', () => {
  it('has defaults and reads QUARRY_CHUNK_TOKENS / QUARRY_CHUNK_OVERLAP', () => {
    const section = { key: 'ingestion', schema: Type.Object({ chunk: ChunkSettings }, { default: {} }), env: chunkEnv };
    const defaults = loadConfig([section], { env: {}, file: false });
    expect(defaults.ingestion).toEqual({ chunk: { targetTokens: 400, overlapTokens: 50 } });
    const set = loadConfig([section], { env: { QUARRY_CHUNK_TOKENS: '256', QUARRY_CHUNK_OVERLAP: '0' }, file: false });
    expect(set.ingestion).toEqual({ chunk: { targetTokens: 256, overlapTokens: 0 } });
    expect(() => loadConfig([section], { env: { QUARRY_CHUNK_TOKENS: '5' }, file: false })).toThrow(/QUARRY_CHUNK_TOKENS/);
  });
});
