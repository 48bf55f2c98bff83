import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dialectUnderTest } from '../../../../test/helpers/app.js';

/** Quick heartbeats and sweeps for tests; keyword-only on PostgreSQL (Debian's has no pgvector). */
export const FAST = { heartbeatMs: 100, sweepMs: 200, leaseMs: 2000, crawl: { allowPrivate: true }, vector: dialectUnderTest === 'postgres' ? 'off' : 'on' };

export interface TestPage {
  status?: number;
  body?: string;
  etag?: string;
  /** Milliseconds before answering. */
  delayMs?: number;
}

/** A small website on a loopback port; tests change `pages` between runs. */
export async function startSite(pages: Record<string, TestPage>) {
  const hits = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const page = path === '/robots.txt' ? { status: 404, body: '' } : pages[path];
    const answer = () => {
      if (!page) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>missing</body></html>');
        return;
      }
      if (page.etag && req.headers['if-none-match'] === page.etag) {
        res.writeHead(304, { etag: page.etag }).end();
        return;
      }
      res.writeHead(page.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...(page.etag ? { etag: page.etag } : {}) }).end(page.body ?? '');
    };
    if (page?.delayMs) setTimeout(answer, page.delayMs);
    else answer();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    pages,
    hits,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

export const html = (title: string, body: string, links: string[] = []) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p>${links
    .map((l) => `<a href="${l}">${l}</a>`)
    .join(' ')}</main></body></html>`;
