import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CrawlEvent, FetchedPage, PageOutcome } from '../contracts.js';
import { crawlSettings, type CrawlSettings } from './settings.js';
import type { LookupFunction } from './ssrf.js';

/** Test helpers: small generated sites on 127.0.0.1 and a recording onPage/onEvent pair. */
export interface SiteRequest {
  host: string;
  path: string;
  headers: IncomingHttpHeaders;
  arrivedAt: number;
}

export interface Site {
  origin: string;
  port: number;
  requests: SiteRequest[];
  connections: number;
  /** Most requests in flight at once. */
  maxInFlight: number;
  /** Per request: when its response finished (or the connection closed). */
  finishedAt: number[];
  pagePaths(): string[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export async function startSite(handler: Handler): Promise<Site> {
  const sockets = new Set<import('node:net').Socket>();
  let inFlight = 0;
  const site: Site = {
    origin: '',
    port: 0,
    requests: [],
    connections: 0,
    maxInFlight: 0,
    finishedAt: [],
    pagePaths: () => site.requests.filter((r) => r.path !== '/robots.txt').map((r) => r.path),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const index = site.requests.push({ host: req.headers.host ?? '', path: req.url ?? '', headers: req.headers, arrivedAt: Date.now() }) - 1;
    inFlight++;
    site.maxInFlight = Math.max(site.maxInFlight, inFlight);
    res.on('close', () => {
      inFlight--;
      site.finishedAt[index] = Date.now();
    });
    handler(req, res);
  });
  server.on('connection', (socket) => {
    site.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.port = (server.address() as AddressInfo).port;
  site.origin = `http://127.0.0.1:${site.port}`;
  return site;
}

export const page = (links: string[], extra = '') =>
  `<!doctype html><html><head>${extra}</head><body>${links.map((l) => `<a href="${l}">${l}</a>`).join('')}</body></html>`;

/** A site from a path -> links map; unknown paths answer 404, `/robots.txt` from `robots`. */
export function linkSite(pages: Record<string, string[]>, robots?: string): Handler {
  return (req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt' && robots !== undefined) return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
    const links = pages[path];
    if (!links) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(links));
  };
}

/** Resolves every name to 127.0.0.1, so virtual hosts (`docs.site.test`) reach the loopback servers. */
export const loopbackLookup: LookupFunction = (_hostname, options, callback) => {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

export const testSettings = (overrides: Partial<CrawlSettings> = {}): CrawlSettings =>
  crawlSettings({ allowPrivate: true, connectTimeoutMs: 2000, headersTimeoutMs: 2000, bodyTimeoutMs: 2000, ...overrides });

/** An onPage that parses links and rel=canonical with regexes (the real parser lives in extract/). */
export function recorder(options: { claim?: boolean } = {}) {
  const pages: FetchedPage[] = [];
  const events: CrawlEvent[] = [];
  return {
    pages,
    events,
    urls: () => pages.map((p) => p.finalUrl),
    reasons: () => events.filter((e) => e.type !== 'discovered').map((e) => `${e.type}:${e.type === 'skipped' ? e.reason : e.reason}`),
    onEvent: (e: CrawlEvent) => void events.push(e),
    onPage: async (p: FetchedPage): Promise<PageOutcome> => {
      const links = [...p.body.matchAll(/<a href="([^"]+)"/g)].map((m) => new URL(m[1]!, p.finalUrl).href);
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(p.body)?.[1];
      const canonicalUrl = canonical ? new URL(canonical, p.finalUrl).href : null;
      if (options.claim && canonicalUrl && p.claimCanonical && !p.claimCanonical(canonicalUrl)) return { links: [] };
      pages.push(p);
      return { links, canonicalUrl };
    },
  };
}
