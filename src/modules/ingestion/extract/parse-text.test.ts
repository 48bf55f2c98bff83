import { describe, expect, it } from 'vitest';
import { parseText } from './parse-text.js';

describe('parseText', () => {
  it('takes a markdown page as is, titled by its first heading, with its links resolved', () => {
    const body = '\uFEFFIntro line\n\n# Getting started\r\n\nSee [the guide](guide.md#top) and <https://example.org/x>.\n';
    const page = parseText(body, 'https://docs.example/a/readme.md', 'text/markdown; charset=utf-8');
    expect(page.title).toBe('Getting started');
    expect(page.markdown).toBe('Intro line\n\n# Getting started\n\nSee [the guide](guide.md#top) and <https://example.org/x>.');
    expect(page.links).toEqual(['https://docs.example/a/guide.md', 'https://example.org/x']);
    expect(page).toMatchObject({ canonicalUrl: null, description: null, language: null });
  });

  it('reads setext headings in markdown', () => {
    expect(parseText('Title here\n==========\n\ntext', 'https://x.example/', 'text/markdown').title).toBe('Title here');
  });

  it('titles plain text by its first non-empty line and finds bare URLs only', () => {
    const page = parseText('\n\n  RFC 9999: Things  \n\nsee https://example.org/spec. and [x](y.html)', 'https://x.example/t.txt', 'text/plain');
    expect(page.title).toBe('RFC 9999: Things');
    expect(page.links).toEqual(['https://example.org/spec']);
  });

  it('falls back to the URL as title for an empty body', () => {
    expect(parseText('', 'https://x.example/e.txt', 'text/plain')).toMatchObject({ title: 'https://x.example/e.txt', markdown: '' });
  });
});
