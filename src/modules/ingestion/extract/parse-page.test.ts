import { describe, expect, it } from 'vitest';
import { markdownToText } from './markdown-text.js';
import { parsePage } from './parse-page.js';

const filler = (topic: string) =>
  `<p>${topic} is explained here in enough words that a reader would call it the body of the page, ` +
  `with several sentences about ${topic} and why it matters to anyone who reads documentation closely.</p>`;

const page = (body: string, head = '') => `<!doctype html><html lang="en-GB"><head><title>Doc title</title>${head}</head><body>${body}</body></html>`;

describe('parsePage metadata and links', () => {
  const html = page(
    `<nav><a href="/nav-only">Nav</a></nav>
     <main><h1>Main</h1>${filler('Linking')}
       <p><a href="guide/intro.html#part">relative</a> <a href="https://other.example/x">abs</a>
       <a href="mailto:a@b.c">mail</a> <a href="javascript:void(0)">js</a> <a href="#top">top</a>
       <a href="guide/intro.html">again</a> <a href="ftp://files.example/f">ftp</a></p></main>`,
    `<base href="https://docs.example/v2/"><link rel="canonical" href="/v2/page.html">
     <meta name="description" content="About linking"><meta property="og:title" content="OG title">`,
  );
  const parsed = parsePage(html, 'https://site.example/a/b.html');

  it('resolves links against <base>, keeps http(s) only, drops fragments and duplicates', () => {
    expect(parsed.links).toEqual([
      'https://docs.example/nav-only',
      'https://docs.example/v2/guide/intro.html',
      'https://other.example/x',
    ]);
  });

  it('reads canonical (absolute), og:title over <title>, description and language', () => {
    expect(parsed.canonicalUrl).toBe('https://docs.example/v2/page.html');
    expect(parsed.title).toBe('OG title');
    expect(parsed.description).toBe('About linking');
    expect(parsed.language).toBe('en-GB');
  });

  it('falls back to <title>, content-language meta and og:description', () => {
    const p = parsePage(
      `<html><head><title> Plain  title </title><meta http-equiv="Content-Language" content="de, en">
       <meta property="og:description" content="OG desc"></head><body><main>${filler('x')}</main></body></html>`,
      'https://s.example/',
    );
    expect(p).toMatchObject({ title: 'Plain title', language: 'de', description: 'OG desc', canonicalUrl: null });
  });
});

describe('parsePage content as markdown', () => {
  const html = page(`
    <header role="banner"><a href="/">Site</a> <a href="/login">Log in</a></header>
    <div class="cookie-banner">We use cookies to improve things.</div>
    <nav class="sidebar"><ul><li><a href="/a">Sidebar link A</a></li></ul></nav>
    <main>
      <h1>Installing <a class="headerlink" href="#installing">¶</a></h1>
      ${filler('Installation')}
      <h2>Steps</h2>
      <ol><li>Download <em>the</em> archive</li><li>Unpack it<ul><li>on Linux: <code>tar xf</code></li><li>on Windows</li></ul></li></ol>
      <div class="highlight-python"><pre>def main():\n    print("hi | there")\n</pre></div>
      <pre><code class="language-bash">npm install quarry</code></pre>
      <table><thead><tr><th>Option</th><th>Default</th></tr></thead>
        <tbody><tr><td><code>port</code></td><td>3000</td></tr><tr><td>host</td><td>a|b</td></tr></tbody></table>
      <blockquote><p>Quoted <strong>wisdom</strong>.</p></blockquote>
      <p>See <a href="/docs/next.html">the next page</a>.</p>
      <div class="edit-this-page"><a href="https://github.com/x/edit">Edit this page</a></div>
    </main>
    <footer><p>Copyright footer text</p></footer>`);
  const md = parsePage(html, 'https://docs.example/install.html').markdown;

  it('keeps headings (without permalink markers), emphasis, inline code and links', () => {
    expect(md).toMatch(/^# Installing$/m);
    expect(md).toMatch(/^## Steps$/m);
    expect(md).toContain('Download *the* archive');
    expect(md).toContain('See [the next page](https://docs.example/docs/next.html).');
    expect(md).toContain('> Quoted **wisdom**.');
  });

  it('renders nested lists, fenced code with language and GFM tables', () => {
    expect(md).toContain('1. Download *the* archive\n2. Unpack it\n   - on Linux: `tar xf`\n   - on Windows');
    expect(md).toContain('```python\ndef main():\n    print("hi | there")\n```');
    expect(md).toContain('```bash\nnpm install quarry\n```');
    expect(md).toContain('| Option | Default |\n| --- | --- |\n| `port` | 3000 |\n| host | a\\|b |');
  });

  it('drops navigation, header, footer, sidebars, cookie banners and edit links', () => {
    for (const chrome of ['Log in', 'cookies', 'Sidebar link', 'Edit this page', 'Copyright footer', '¶']) {
      expect(md).not.toContain(chrome);
    }
  });

  it('converts back to plain text for scoring', () => {
    const text = markdownToText(md);
    expect(text).toContain('Installing\n');
    expect(text).toContain('Download the archive');
    expect(text).toContain('See the next page.');
    expect(text).not.toMatch(/```|\]\(|\*\*/);
  });
});

describe('parsePage on pages without a marked-up article', () => {
  it('uses Readability on article pages', () => {
    const html = page(
      `<div id="menu"><a href="/1">Home</a> <a href="/2">News</a> <a href="/3">Sport</a></div>
       <div class="story">${filler('The harbour')}${filler('The ferry')}${filler('The weather')}</div>
       <div class="related-links"><a href="/r1">Another story you may like</a></div>`,
      '<meta property="og:type" content="article">',
    );
    const p = parsePage(html, 'https://news.example/story');
    expect(p.strategy).toBe('readability');
    expect(p.markdown).toContain('The harbour is explained here');
    expect(p.markdown).toContain('The weather is explained here');
    expect(p.markdown).not.toContain('Sport');
    expect(p.markdown).not.toContain('Another story');
  });

  it('falls back to the body text when no article is found', () => {
    const p = parsePage(page('<div>Short note one.</div><div>Short note two.</div><footer>foot</footer>'), 'https://s.example/n');
    expect(p.markdown).toContain('Short note one.');
    expect(p.markdown).toContain('Short note two.');
    expect(p.markdown).not.toContain('foot');
    expect(p.title).toBe('Doc title');
  });

  it('survives empty and non-HTML input', () => {
    expect(parsePage('', 'https://s.example/').markdown).toBe('');
    expect(parsePage('just words', 'https://s.example/').markdown).toBe('just words');
  });
});
