import { afterEach, describe, expect, it } from 'vitest';
import type { WebSourceConfig } from '../../sources/source-types.js';
import { crawl } from './crawler.js';
import { loopbackLookup, recorder, startSite, testSettings, type Handler, type Site } from './test-site.js';

const sites: Site[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});
const site = async (handler: Handler) => {
  const s = await startSite(handler);
  sites.push(s);
  return s;
};
const config = (urls: string[], extra: Partial<WebSourceConfig> = {}) => ({ urls, crawlDepth: 1, ...extra }) as WebSourceConfig;
const run = (cfg: WebSourceConfig, rec = recorder(), extra: Partial<Parameters<typeof crawl>[0]> = {}) =>
  crawl({ config: cfg, settings: testSettings(), signal: new AbortController().signal, onPage: rec.onPage, onEvent: rec.onEvent, ...extra });
const html = { 'content-type': 'text/html; charset=utf-8' };
const failures = (rec: ReturnType<typeof recorder>) =>
  Object.fromEntries(rec.events.flatMap((e) => (e.type === 'failed' ? [[new URL(e.url).pathname, `${e.status} ${e.reason}`]] : [])));
const skips = (rec: ReturnType<typeof recorder>) =>
  Object.fromEntries(rec.events.flatMap((e) => (e.type === 'skipped' ? [[new URL(e.url).pathname, e.reason]] : [])));

describe('fetch: redirects', () => {
  it('follows in-scope redirects, refuses out-of-scope ones, loops and chains over the cap', async () => {
    const other = await site((_req, res) => void res.writeHead(200, html).end('other'));
    const s = await site((req, res) => {
      const url = req.url ?? '/';
      const to = (location: string) => void res.writeHead(302, { location }).end();
      if (url === '/') return void res.writeHead(200, html).end(['/old', '/away', '/loop1', '/hop0', '/nolocation'].map((l) => `<a href="${l}">x</a>`).join(''));
      if (url === '/old') return to('/new');
      if (url === '/new') return void res.writeHead(200, html).end('new');
      if (url === '/away') return to(`http://localhost:${other.port}/`);
      if (url === '/loop1') return to('/loop2');
      if (url === '/loop2') return to('/loop1');
      if (url.startsWith('/hop')) return to(`/hop${Number(url.slice(4)) + 1}`);
      if (url === '/nolocation') return void res.writeHead(301).end();
      res.writeHead(404).end();
    });
    const rec = recorder();
    await run(config([`${s.origin}/`]), rec, { settings: testSettings({ maxRedirects: 3 }) });
    const moved = rec.pages.find((p) => p.url === `${s.origin}/old`);
    expect(moved?.finalUrl).toBe(`${s.origin}/new`);
    expect(moved?.body).toBe('new');
    expect(skips(rec)).toEqual({ '/away': 'scope' });
    expect(other.requests).toEqual([]);
    const failed = failures(rec);
    expect(failed['/loop1']).toMatch(/^302 redirect loop/);
    expect(failed['/hop0']).toBe('302 more than 3 redirects');
    expect(s.pagePaths().filter((p) => p.startsWith('/hop'))).toEqual(['/hop0', '/hop1', '/hop2', '/hop3']);
    expect(failed['/nolocation']).toMatch(/^301 .*without a Location/);
  });
});

describe('fetch: errors, timeouts, sizes and types', () => {
  it('reports 404, 500, stalled headers and stalled bodies as failures and keeps crawling', async () => {
    const s = await site((req, res) => {
      const url = req.url ?? '/';
      if (url === '/') return void res.writeHead(200, html).end(['/missing', '/broken', '/no-headers', '/stalls', '/fine'].map((l) => `<a href="${l}">x</a>`).join(''));
      if (url === '/missing') return void res.writeHead(404).end();
      if (url === '/broken') return void res.writeHead(500).end();
      if (url === '/no-headers') return; // never answers
      if (url === '/stalls') return void res.writeHead(200, html).write('<p>half a page');
      if (url === '/fine') return void res.writeHead(200, html).end('fine');
      res.writeHead(404).end();
    });
    const rec = recorder();
    const summary = await run(config([`${s.origin}/`]), rec, { settings: testSettings({ headersTimeoutMs: 300, bodyTimeoutMs: 300 }) });
    expect(failures(rec)).toEqual({
      '/missing': '404 HTTP 404',
      '/broken': '500 HTTP 500',
      '/no-headers': 'null no response headers within 300 ms',
      '/stalls': '200 the body stalled for more than 300 ms',
    });
    expect(rec.urls()).toEqual([`${s.origin}/`, `${s.origin}/fine`]);
    expect(summary).toMatchObject({ pagesFetched: 2, pagesFailed: 4 });
  });

  it('skips oversized pages and non-text types without downloading their bodies', async () => {
    const sent: Record<string, number> = {};
    const stream = (res: import('node:http').ServerResponse, path: string, headers: Record<string, string | number>) => {
      res.writeHead(200, headers);
      sent[path] = 0;
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (sent[path]! < 20 * 1024 * 1024) {
          sent[path]! += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => res.destroy());
      pump();
    };
    const s = await site((req, res) => {
      const url = req.url ?? '/';
      if (url === '/') return void res.writeHead(200, html).end(['/declared-big', '/chunked-big', '/photo.png', '/paper.pdf', '/notes.txt', '/readme.md'].map((l) => `<a href="${l}">x</a>`).join(''));
      if (url === '/declared-big') return stream(res, url, { 'content-type': 'text/html', 'content-length': 20 * 1024 * 1024 });
      if (url === '/chunked-big') return stream(res, url, { 'content-type': 'text/html' });
      if (url === '/photo.png') return stream(res, url, { 'content-type': 'image/png' });
      if (url === '/paper.pdf') return stream(res, url, { 'content-type': 'application/pdf' });
      if (url === '/notes.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('plain notes');
      if (url === '/readme.md') return void res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end('# Readme');
      res.writeHead(404).end();
    });
    const rec = recorder();
    await run(config([`${s.origin}/`]), rec, { settings: testSettings({ maxBytes: 256 * 1024 }) });
    expect(skips(rec)).toEqual({ '/declared-big': 'size', '/chunked-big': 'size', '/photo.png': 'content_type', '/paper.pdf': 'content_type' });
    for (const path of ['/declared-big', '/chunked-big', '/photo.png', '/paper.pdf']) expect(sent[path]).toBeLessThan(10 * 1024 * 1024);
    expect(rec.pages.map((p) => [new URL(p.url).pathname, p.body])).toEqual(
      expect.arrayContaining([['/notes.txt', 'plain notes'], ['/readme.md', '# Readme']]),
    );
  });

  it('decodes the charset from Content-Type or a meta tag, UTF-8 otherwise', async () => {
    const latin1 = Buffer.from('<meta charset="iso-8859-1"><p>caf\xe9</p>', 'latin1');
    const s = await site((req, res) => {
      if (req.url === '/') return void res.writeHead(200, html).end('<a href="/meta">m</a><a href="/header">h</a><a href="/utf8">u</a>');
      if (req.url === '/meta') return void res.writeHead(200, { 'content-type': 'text/html' }).end(latin1);
      if (req.url === '/header') return void res.writeHead(200, { 'content-type': 'text/plain; charset=windows-1252' }).end(Buffer.from([0x80, 0x20, 0xe9]));
      if (req.url === '/utf8') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('naïve ☃');
      res.writeHead(404).end();
    });
    const rec = recorder();
    await run(config([`${s.origin}/`]), rec);
    const body = (path: string) => rec.pages.find((p) => p.url.endsWith(path))?.body;
    expect(body('/meta')).toContain('café');
    expect(body('/header')).toBe('€ é');
    expect(body('/utf8')).toBe('naïve ☃');
  });
});

describe('fetch: SSRF guard and headers', () => {
  it('refuses loopback hosts (literal or resolved) unless allowPrivate, before any connection', async () => {
    const s = await site((_req, res) => void res.writeHead(200, html).end('secret'));
    const rec = recorder();
    const settings = testSettings({ allowPrivate: false });
    await run(config([`${s.origin}/`, `http://internal.test:${s.port}/`, `http://[::ffff:127.0.0.1]:${s.port}/`]), rec, { settings, lookup: loopbackLookup });
    const reasons = rec.events.filter((e) => e.type === 'failed').map((e) => (e.type === 'failed' ? e.reason : ''));
    expect(reasons).toHaveLength(3);
    for (const reason of reasons) expect(reason).toMatch(/refused: .*127\.0\.0\.1.*loopback address/);
    expect(reasons.some((r) => r.includes('internal.test resolves to 127.0.0.1'))).toBe(true);
    expect(s.connections).toBe(0);
    expect(rec.pages).toEqual([]);
  });

  it('sends the source headers to in-scope hosts only, never out of scope', async () => {
    const s = await site((req, res) => {
      const host = (req.headers.host ?? '').split(':')[0];
      if (req.url === '/' && host === 'docs.site.test')
        return void res
          .writeHead(200, html)
          .end(`<a href="http://api.site.test:${s.port}/ref">a</a><a href="http://elsewhere.test:${s.port}/x">b</a><a href="/go">c</a>`);
      if (req.url === '/go') return void res.writeHead(302, { location: `http://elsewhere.test:${s.port}/landing` }).end();
      res.writeHead(200, html).end('ok');
    });
    const rec = recorder();
    const headers = { Authorization: 'Bearer s3cret', Cookie: 'session=abc' };
    await run(config([`http://docs.site.test:${s.port}/`], { scope: 'domain', headers }), rec, { lookup: loopbackLookup });
    const byHost = s.requests.map((r) => [r.host.split(':')[0], r.path, r.headers.authorization ?? null, r.headers.cookie ?? null, r.headers['user-agent']]);
    expect(byHost.filter(([host]) => host === 'elsewhere.test')).toEqual([]);
    expect(byHost.filter(([, path]) => path !== '/robots.txt').map((r) => r.slice(0, 4))).toEqual(
      expect.arrayContaining([
        ['docs.site.test', '/', 'Bearer s3cret', 'session=abc'],
        ['api.site.test', '/ref', 'Bearer s3cret', 'session=abc'],
        ['docs.site.test', '/go', 'Bearer s3cret', 'session=abc'],
      ]),
    );
    expect(byHost.every((r) => String(r[4]).startsWith('QuarryBot/'))).toBe(true);
    expect(skips(rec)).toEqual({ '/go': 'scope' });
  });
});
