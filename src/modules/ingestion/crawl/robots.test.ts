import { afterEach, describe, expect, it } from 'vitest';
import type { WebSourceConfig } from '../../sources/source-types.js';
import { crawl } from './crawler.js';
import { linkSite, recorder, startSite, testSettings, type Handler, type Site } from './test-site.js';

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
const tenPages = Object.fromEntries([['/', Array.from({ length: 10 }, (_, i) => `/p${i}`)], ...Array.from({ length: 10 }, (_, i) => [`/p${i}`, []])]);

describe('robots.txt', () => {
  it('is fetched once per origin, first, and its QuarryBot group is obeyed', async () => {
    const robots = 'User-agent: *\nDisallow: /\n\nUser-agent: QuarryBot\nDisallow: /private\nAllow: /\n';
    const s = await site(linkSite({ '/': ['/public', '/private/a', '/private'], '/public': [] }, robots));
    const rec = recorder();
    const summary = await run(config([`${s.origin}/`]), rec);
    expect(s.requests.map((r) => r.path)).toEqual(['/robots.txt', '/', '/public']);
    expect(rec.events.filter((e) => e.type === 'skipped').map((e) => [new URL(e.url).pathname, e.type === 'skipped' && e.reason])).toEqual([
      ['/private/a', 'robots'],
      ['/private', 'robots'],
    ]);
    expect(summary).toMatchObject({ pagesFetched: 2, pagesSkipped: 2 });
  });

  it('is ignored when respectRobots is false', async () => {
    const s = await site(linkSite({ '/': ['/a'], '/a': [] }, 'User-agent: *\nDisallow: /\n'));
    await run(config([`${s.origin}/`], { respectRobots: false }), recorder());
    expect(s.requests.map((r) => r.path)).toEqual(['/', '/a']);
  });

  it('a missing robots.txt allows everything; a 5xx one blocks the origin as failed', async () => {
    const missing = await site(linkSite({ '/': ['/a'], '/a': [] }));
    const rec = recorder();
    await run(config([`${missing.origin}/`]), rec);
    expect(missing.pagePaths()).toEqual(['/', '/a']);

    const broken = await site((req, res) => void (req.url === '/robots.txt' ? res.writeHead(503).end() : res.writeHead(200).end('x')));
    const rec2 = recorder();
    const summary = await run(config([`${broken.origin}/`]), rec2);
    expect(broken.requests.map((r) => r.path)).toEqual(['/robots.txt']);
    expect(rec2.events.find((e) => e.type === 'failed')).toMatchObject({ reason: 'robots.txt unreachable (HTTP 503)' });
    expect(summary.pagesFailed).toBe(1);
  });

  it('Crawl-delay makes requests to the origin one at a time with the delay between them', async () => {
    const s = await site(linkSite(tenPages, 'User-agent: QuarryBot\nCrawl-delay: 0.1\n'));
    await run(config([`${s.origin}/`], { maxPages: 5 }), recorder(), { settings: testSettings({ perHostConcurrency: 4 }) });
    expect(s.requests).toHaveLength(6);
    expect(s.maxInFlight).toBe(1);
    // Each request arrives at least the delay after the previous response ended (never earlier).
    const pages = s.requests.slice(1);
    for (let i = 1; i < pages.length; i++) expect(pages[i]!.arrivedAt - s.finishedAt[i]!).toBeGreaterThanOrEqual(95);
  });
});

describe('politeness without robots', () => {
  it('perHostConcurrency bounds the requests one origin sees at once', async () => {
    const handler = linkSite(tenPages);
    const s = await site((req, res) => void setTimeout(() => handler(req, res), 20));
    await run(config([`${s.origin}/`], { respectRobots: false }), recorder(), { settings: testSettings({ perHostConcurrency: 2, concurrency: 8 }) });
    expect(s.requests).toHaveLength(11);
    expect(s.maxInFlight).toBe(2);
  });

  it('delayMs spaces requests to one origin', async () => {
    const s = await site(linkSite(tenPages));
    await run(config([`${s.origin}/`], { respectRobots: false, maxPages: 4 }), recorder(), { settings: testSettings({ delayMs: 80 }) });
    expect(s.maxInFlight).toBe(1);
    for (let i = 1; i < s.requests.length; i++) expect(s.requests[i]!.arrivedAt - s.finishedAt[i - 1]!).toBeGreaterThanOrEqual(75);
  });
});
