import { createServer, type Server } from 'node:http';

/** A tiny documentation site on loopback for the crawler to ingest. */
const PAGES: Record<string, { title: string; body: string }> = {
  '/': {
    title: 'Granite handbook',
    body: `<h1>Granite handbook</h1><p>Welcome to the handbook about stone. Read the <a href="/quarrying">quarrying guide</a> and the <a href="/polishing">polishing notes</a>. The <a href="/retired">old price list</a> is gone.</p>`,
  },
  '/quarrying': {
    title: 'Quarrying guide',
    body: `<h1>Quarrying guide</h1><h2>Wire saws</h2><p>Diamond wire saws cut granite blocks from the bench face. The blocks are split with feathers and wedges before transport to the mill.</p><p>Back to the <a href="/">handbook</a>.</p>`,
  },
  '/polishing': {
    title: 'Polishing notes',
    body: `<h1>Polishing notes</h1><h2>Abrasives</h2><p>Polishing granite slabs uses successively finer abrasive pads until the surface reflects light like a mirror.</p>`,
  },
};

export async function startSite(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      return;
    }
    if (path === '/slow') {
      // Long enough for the test to cancel the run while this page is still loading.
      const timer = setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Slow</title><p>finally</p>'), 8000);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    const page = PAGES[path];
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html lang="en"><head><title>${page.title}</title></head><body><main>${page.body}</main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
