// npm run bench:ingest — end-to-end ingestion speed (crawl → parse → chunk → embed → index) of a
// real `quarry serve` on the python-docs site served from loopback, against a crawl-only baseline
// (Crawlee's CheerioCrawler: fetch + parse, same site, same depth) measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { assemble, buildServer, configSections, migrate } from '../src/app.js';
import { loadConfig } from '../src/kernel/config/load.js';
import { createContext } from '../src/kernel/context.js';
import { startProcess } from './lib.js';

const SITE = process.env.BENCH_SITE ?? join(import.meta.dirname, '..', '..', 'shared', 'eval', 'python-docs-site');
const DEPTH = Number(process.env.BENCH_DEPTH ?? 5);
const sitePort = 3921;
const siteUrl = `http://127.0.0.1:${sitePort}/index.html`;

const site = await startProcess(['bench/static-server.mjs', SITE, String(sitePort)], {}, siteUrl);
const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-ingest-'));
const crawleeDir = mkdtempSync(join(tmpdir(), 'quarry-bench-crawlee-'));

try {
  const quarry = await measureQuarry();
  const baseline = process.env.BENCH_SKIP_BASELINE ? null : await measureCrawlee();
  const ratio = baseline ? quarry.pagesPerSecond / baseline.pagesPerSecond : Number.NaN;
  const lines = [
    '',
    `quarry end to end      ${quarry.pages} pages in ${(quarry.ms / 1000).toFixed(2)} s = ${quarry.pagesPerSecond.toFixed(1)} pages/s (${quarry.chunks} chunks, status ${quarry.status}), ${quarry.cpuMsPerPage.toFixed(1)} ms CPU/page (all threads)`,
    ...(baseline
      ? [
          `crawlee cheerio crawl  ${baseline.pages} pages in ${(baseline.ms / 1000).toFixed(2)} s = ${baseline.pagesPerSecond.toFixed(1)} pages/s (fetch + parse only), ${baseline.cpuMsPerPage.toFixed(1)} ms CPU/page`,
          `ratio                  ${ratio.toFixed(2)}x the crawl-only baseline`,
        ]
      : ['crawlee cheerio crawl  skipped (BENCH_SKIP_BASELINE)']),
    `machine load           ${loadavg()[0]!.toFixed(1)} (1-min average) on ${availableParallelism()} cores: figures fall with contention`,
    `targets                >= 50 pages/s: ${quarry.pagesPerSecond >= 50 ? 'met' : 'NOT met'}; faster than baseline: ${baseline ? (ratio > 1 ? 'met' : 'NOT met') : 'not measured'}`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
} finally {
  site.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(crawleeDir, { recursive: true, force: true });
}

async function measureQuarry() {
  // In-process, exactly as `quarry serve` assembles itself (default settings; loopback allowed).
  const config = loadConfig(configSections, {
    env: { QUARRY_CRAWL_ALLOW_PRIVATE: 'true' },
    file: false,
    overrides: { dataDir, logLevel: 'warn', server: { port: 0, host: '127.0.0.1' } },
  });
  const ctx = await createContext(config, 'serve');
  await migrate(ctx);
  const quarry = await assemble(ctx);
  const app = await buildServer(quarry);
  await quarry.startWorkers();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const key = (await quarry.services.apiKeys.create({ name: 'bench', permissions: { admin: true } })).key;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : null });
    return (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  try {
    const project = await api('POST', '/v1/projects', { name: 'Bench' });
    const source = await api('POST', '/v1/sources', { projectId: project.id, type: 'web', config: { urls: [siteUrl], crawlDepth: DEPTH } });
    const cpu = process.cpuUsage();
    const { runId } = await api('POST', '/v1/trigger/ingestion', { sourceId: source.id });
    for (;;) {
      const run = await api('GET', `/v1/runs/${runId}`);
      if (!['queued', 'running'].includes(run.status)) {
        if (run.status !== 'succeeded') process.stderr.write(`run ended ${run.status}: ${run.error}\n`);
        const ms = Date.parse(run.finishedAt) - Date.parse(run.queuedAt);
        const pages = run.stats.pagesFetched as number;
        const used = process.cpuUsage(cpu);
        return { pages, ms, pagesPerSecond: pages / (ms / 1000), chunks: run.stats.chunks as number, status: run.status as string, cpuMsPerPage: (used.user + used.system) / 1000 / pages };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await app.close();
    await ctx.close();
  }
}

async function measureCrawlee() {
  process.env.CRAWLEE_STORAGE_DIR = crawleeDir;
  const { CheerioCrawler, Configuration, log } = await import('@crawlee/cheerio');
  log.setLevel(log.LEVELS.OFF);
  const config = new Configuration({ persistStorage: false, logLevel: 2 /* warnings */ });
  let pages = 0;
  const crawler = new CheerioCrawler(
    {
      maxRequestRetries: 0,
      // Quarry ingests the site's text/plain pages too; let the baseline fetch the same set.
      additionalMimeTypes: ['text/plain'],
      async requestHandler({ request, $, enqueueLinks }) {
        pages++;
        // Touch the parsed document, as an extractor would (text/plain pages have no DOM).
        if (typeof $ === 'function') $('title').text();
        const depth = (request.userData.depth as number) ?? 0;
        if (depth < DEPTH) await enqueueLinks({ strategy: 'same-origin', userData: { depth: depth + 1 } });
      },
    },
    config,
  );
  const started = Date.now();
  const cpu = process.cpuUsage();
  await crawler.run([{ url: siteUrl, userData: { depth: 0 } }]);
  const ms = Date.now() - started;
  const used = process.cpuUsage(cpu);
  return { pages, ms, pagesPerSecond: pages / (ms / 1000), cpuMsPerPage: (used.user + used.system) / 1000 / pages };
}
