import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from './crawler.js';
import { linkSite, loopbackLookup, recorder, startSite, testSettings, type Site } from './test-site.js';
import type { WebSourceConfig } from '../../sources/source-types.js';

const sites: Site[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});
const site = async (...args: Parameters<typeof startSite>) => {
  const s = await startSite(...args);
  sites.push(s);
  return s;
};
const config = (urls: string[], extra: Partial<WebSourceConfig> = {}) => ({ urls, crawlDepth: 1, ...extra }) as WebSourceConfig;
const run = (cfg: WebSourceConfig, rec = recorder(), extra: Partial<Parameters<typeof crawl>[0]> = {}) =>
  crawl({ config: cfg, settings: testSettings(), signal: new AbortController().signal, onPage: rec.onPage, onEvent: rec.onEvent, ...extra });

const chain = { '/': ['/a'], '/a': ['/b'], '/b': ['/c'], '/c': [] };

describe('crawl: depth and frontier', () => {
  it.each([
    [0, ['/']],
    [1, ['/', '/a']],
    [2, ['/', '/a', '/b']],
  ])('depth %i fetches only pages within that many hops', async (depth, expected) => {
    const s = await site(linkSite(chain));
    const rec = recorder();
    const summary = await run(config([`${s.origin}/`], { crawlDepth: depth }), rec);
    expect(rec.urls()).toEqual(expected.map((p) => s.origin + p));
    expect(s.pagePaths()).toEqual(expected);
    expect(rec.pages.map((p) => p.depth)).toEqual(expected.map((_, i) => i));
    expect(summary).toMatchObject({ pagesFetched: expected.length, pagesDiscovered: expected.length, pagesFailed: 0 });
  });

  it('fetches each URL once: fragments, default ports, host case and repeated links fold together', async () => {
    const s = await site(linkSite({ '/': ['/a#top', '/a', '/a?', 'mailto:x@y.z', 'javascript:void(0)', '/b'], '/a': ['/', '/b#x'], '/b': [] }));
    const rec = recorder();
    await run(config([`${s.origin}/`, `${s.origin.toUpperCase().replace('HTTP', 'http')}/#frag`], { crawlDepth: 2 }), rec);
    expect(s.pagePaths().sort()).toEqual(['/', '/a', '/b']);
    expect(rec.events.filter((e) => e.type === 'discovered').map((e) => e.url).sort()).toEqual(
      [`${s.origin}/`, `${s.origin}/a`, `${s.origin}/b`].sort(),
    );
  });

  it('stops at maxPages and reports the rest as skipped max_pages', async () => {
    const links = Array.from({ length: 8 }, (_, i) => `/p${i}`);
    const s = await site(linkSite({ '/': links, ...Object.fromEntries(links.map((l) => [l, []])) }));
    const rec = recorder();
    const summary = await run(config([`${s.origin}/`], { maxPages: 3 }), rec);
    expect(s.pagePaths()).toHaveLength(3);
    expect(rec.reasons().filter((r) => r === 'skipped:max_pages')).toHaveLength(6);
    expect(summary.pagesFetched).toBe(3);
  });

  it('caps maxPages by the maxPagesCeiling setting', async () => {
    const links = Array.from({ length: 5 }, (_, i) => `/p${i}`);
    const s = await site(linkSite({ '/': links, ...Object.fromEntries(links.map((l) => [l, []])) }));
    await run(config([`${s.origin}/`], { maxPages: 1000 }), recorder(), { settings: testSettings({ maxPagesCeiling: 2 }) });
    expect(s.pagePaths()).toHaveLength(2);
  });
});

describe('crawl: scope and globs', () => {
  const vhosts = async () => {
    const s = await site((req, res) => {
      const host = (req.headers.host ?? '').split(':')[0];
      const links: Record<string, string[]> = {
        'docs.site.test': ['/docs/guide/intro', '/docs/other', '/docs/guideline', `http://api.site.test:PORT/ref`, `http://other.test:PORT/x`],
      };
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        `<a href="/">home</a>${(req.url === '/docs/guide/' && host ? (links[host] ?? []) : []).map((l) => `<a href="${l.replace('PORT', String(s.port))}">l</a>`).join('')}`,
      );
    });
    return s;
  };

  it.each([
    ['hostname', ['docs.site.test/docs/guide/', 'docs.site.test/docs/guide/intro', 'docs.site.test/docs/other', 'docs.site.test/docs/guideline', 'docs.site.test/']],
    ['domain', ['docs.site.test/docs/guide/', 'docs.site.test/docs/guide/intro', 'docs.site.test/docs/other', 'docs.site.test/docs/guideline', 'api.site.test/ref', 'docs.site.test/']],
    ['prefix', ['docs.site.test/docs/guide/', 'docs.site.test/docs/guide/intro']],
  ] as const)('scope %s follows exactly the matching links', async (scope, expected) => {
    const s = await vhosts();
    const rec = recorder();
    await run(config([`http://docs.site.test:${s.port}/docs/guide/`], { scope, crawlDepth: 1 }), rec, { lookup: loopbackLookup });
    const fetched = s.requests.filter((r) => r.path !== '/robots.txt').map((r) => `${r.host.split(':')[0]}${r.path}`);
    expect(fetched.sort()).toEqual([...expected].sort());
  });

  it('include and exclude globs match the decoded path, without the query', async () => {
    const s = await site(
      linkSite({ '/': ['/docs/a?x=1', '/docs/private/b', '/blog/c', '/docs/d%20e', '/docs/f.pdf'], '/docs/a?x=1': [], '/docs/d%20e': [] }),
    );
    const rec = recorder();
    await run(config([`${s.origin}/`], { include: ['/docs/**'], exclude: ['/docs/private/**', '**/*.pdf'] }), rec);
    expect(s.pagePaths().sort()).toEqual(['/', '/docs/a?x=1', '/docs/d%20e']);
  });
});

describe('crawl: duplicates', () => {
  it('a page whose canonical was already taken is skipped as duplicate, and redirect targets are not refetched', async () => {
    const s = await site((req, res) => {
      const canon = '<link rel="canonical" href="/a">';
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/a">a</a><a href="/a?ref=1">b</a><a href="/old">c</a>');
      if (req.url === '/old') return void res.writeHead(301, { location: '/a' }).end();
      if (req.url?.startsWith('/a')) return void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(canon), req.url === '/a' ? 0 : 50);
      res.writeHead(404).end();
    });
    const rec = recorder({ claim: true });
    const summary = await run(config([`${s.origin}/`]), rec, { settings: testSettings({ perHostConcurrency: 1 }) });
    expect(rec.urls().sort()).toEqual([`${s.origin}/`, `${s.origin}/a`]);
    expect(rec.reasons().sort()).toEqual(['skipped:duplicate', 'skipped:duplicate']);
    expect(s.pagePaths().filter((p) => p === '/a')).toHaveLength(1);
    expect(summary).toMatchObject({ pagesFetched: 2, pagesSkipped: 2 });
  });
});

describe('crawl: conditional requests', () => {
  it('sends validators where a 304 loses nothing and hands back notModified pages with stored links', async () => {
    const s = await site((req, res) => {
      const etag = `"v-${req.url}"`;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      const links: Record<string, string> = { '/': '<a href="/mid">m</a>', '/mid': '<a href="/leaf">l</a>', '/leaf': '', '/from-stored': '' };
      if (!(req.url! in links)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html', etag }).end(links[req.url!]);
    });
    const prev = (path: string, links?: string[]) => [`${s.origin}${path}`, { etag: `"v-${path}"`, lastModified: null, hash: 'h', ...(links ? { links } : {}) }] as const;
    const previous = new Map([prev('/'), prev('/mid', [`${s.origin}/from-stored`, `${s.origin}/leaf`]), prev('/leaf')]);
    const rec = recorder();
    await run(config([`${s.origin}/`], { crawlDepth: 2 }), rec, { previous });
    const sent = Object.fromEntries(s.requests.filter((r) => r.path !== '/robots.txt').map((r) => [r.path, r.headers['if-none-match'] ?? null]));
    expect(sent).toEqual({ '/': null, '/mid': '"v-/mid"', '/leaf': '"v-/leaf"', '/from-stored': null });
    const byPath = Object.fromEntries(rec.pages.map((p) => [new URL(p.url).pathname, p.notModified]));
    expect(byPath).toEqual({ '/': false, '/mid': true, '/leaf': true, '/from-stored': false });
  });
});

describe('crawl: cancellation', () => {
  it('stops promptly when the signal aborts, with requests in flight and pages queued', async () => {
    const links = Array.from({ length: 20 }, (_, i) => `/slow${i}`);
    const s = await site((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(links.map((l) => `<a href="${l}">x</a>`).join(''));
      // never answers: only the abort can end these requests
    });
    const controller = new AbortController();
    const rec = recorder();
    const done = run(config([`${s.origin}/`]), rec, { signal: controller.signal, settings: testSettings({ headersTimeoutMs: 60_000, concurrency: 2, perHostConcurrency: 2 }) });
    while (s.requests.length < 4) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await done;
    expect(s.requests.length).toBe(4); // robots, /, and the two slots of concurrency 2
    expect(rec.events.filter((e) => e.type === 'failed')).toEqual([]);
  }, 5000);
});
