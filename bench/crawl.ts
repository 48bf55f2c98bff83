// Crawler overhead: crawl() over a generated 497-page site (served by a separate process) versus the
// baseline of fetching the same 497 URLs directly with undici at the same concurrency.
// Usage: npm run bench:crawl   (reports pages/s for both and the ratio crawler/baseline)
import { spawn } from 'node:child_process';
import { Agent, request } from 'undici';
import { crawl } from '../src/modules/ingestion/crawl/crawler.js';
import { crawlSettings } from '../src/modules/ingestion/crawl/settings.js';
import type { WebSourceConfig } from '../src/modules/sources/source-types.js';

const PAGES = 497;
const PORT = 3000 + Math.floor(Math.random() * 20000);
const serverCode = `
const http = require('node:http');
const N = ${PAGES};
const filler = '<p>' + 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(80) + '</p>';
const body = (i) => { const links = []; for (let k = 1; k <= 10; k++) links.push('<a href="/p' + ((i * 7 + k * 13) % N) + '">l</a>');
  return '<!doctype html><html><head><title>Page ' + i + '</title></head><body><h1>Page ' + i + '</h1>' + filler + links.join('') + '</body></html>'; };
http.createServer((req, res) => {
  if (req.url === '/robots.txt') { res.writeHead(200, { 'content-type': 'text/plain' }); return res.end('User-agent: *\\nAllow: /\\n'); }
  const m = /^\\/p(\\d+)$/.exec(req.url || ''); const i = req.url === '/' ? 0 : m ? Number(m[1]) : -1;
  if (i < 0 || i >= N) { res.writeHead(404); return res.end(); }
  const b = body(i); res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(b) }); res.end(b);
}).listen(${PORT}, '127.0.0.1', () => process.stdout.write('ready\\n'));`;

const server = spawn(process.execPath, ['-e', serverCode], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise<void>((resolve) => server.stdout.once('data', () => resolve()));
const origin = `http://127.0.0.1:${PORT}`;
const settings = crawlSettings({ allowPrivate: true });

async function baseline(): Promise<number> {
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const urls = Array.from({ length: PAGES }, (_, i) => `${origin}/p${i}`);
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: settings.perHostConcurrency }, async () => {
      while (next < urls.length) {
        const res = await request(urls[next++]!, { dispatcher: agent });
        await res.body.text();
      }
    }),
  );
  const ms = performance.now() - start;
  await agent.close();
  return (urls.length / ms) * 1000;
}

async function crawler(): Promise<number> {
  const config = { urls: [`${origin}/p0`], crawlDepth: 10, maxPages: 1000 } as WebSourceConfig;
  const start = performance.now();
  const summary = await crawl({
    config,
    settings,
    signal: new AbortController().signal,
    onPage: async (page) => ({ links: [...page.body.matchAll(/href="([^"]+)"/g)].map((m) => new URL(m[1]!, page.finalUrl).href) }),
  });
  const ms = performance.now() - start;
  if (summary.pagesFetched !== PAGES) throw new Error(`expected ${PAGES} pages, crawled ${summary.pagesFetched}`);
  return (summary.pagesFetched / ms) * 1000;
}

try {
  await baseline(); // warm-up
  await crawler();
  const base: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < 3; i++) {
    base.push(await baseline());
    ours.push(await crawler());
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
  const [b, c] = [median(base), median(ours)];
  console.log(`baseline (undici, ${settings.perHostConcurrency} at once): ${b.toFixed(0)} pages/s`);
  console.log(`crawl() (robots, scope, dedupe, scheduler):  ${c.toFixed(0)} pages/s`);
  console.log(`ratio crawl/baseline: ${(c / b).toFixed(2)}`);
} finally {
  server.kill();
}
