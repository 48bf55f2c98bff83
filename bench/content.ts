// npm run bench:content — the content read paths (REST list, the seed's GraphQL query) with an API
// key, against a bare Fastify hello-world measured in the same run (ratios: the machine is shared).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { measure, report, startProcess, type Measured } from './lib.js';

const PORT = '3921';
const base = `http://127.0.0.1:${PORT}`;
const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-content-'));
// Vectors off: content does not use them, and the figures should not include their start-up.
const env = { QUARRY_DATA_DIR: dataDir, QUARRY_LOG_LEVEL: 'warn', PORT, HOST: '127.0.0.1', NODE_ENV: 'development', QUARRY_VECTOR: 'off' };
const quarry = ['bin/quarry.js'];
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

const key = execFileSync(process.execPath, [...quarry, 'keys', 'create', '--name', 'bench', '--permissions', JSON.stringify({ models: { posts: ['read', 'create'], blogPosts: ['read', 'create'] }, rateLimit: { requests: 1e9, windowMs: 900_000 } })], {
  env: { ...process.env, ...env },
  stdio: ['ignore', 'pipe', 'ignore'],
})
  .toString()
  .trim();
const headers = { authorization: `Bearer ${key}` };

async function measurePost(name: string, url: string, body: string): Promise<Measured> {
  const opts = { url, method: 'POST' as const, body, connections: 100, headers: { ...headers, 'content-type': 'application/json' } };
  await autocannon({ ...opts, duration: 2 });
  const result = await autocannon({ ...opts, duration: seconds });
  return { name, requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, non2xx: result.non2xx, cpuMicrosPerRequest: Number.NaN };
}

const app = await startProcess([...quarry, 'serve'], env, `${base}/health`);
for (const model of ['posts', 'blogPosts'])
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${base}/api/${model}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Bench ${i}`, slug: `bench-${i}`, body: '# Hello\n\nSome text.', status: i % 2 ? 'published' : 'draft', publishedAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(), tags: ['bench', `t${i % 5}`] }),
    });
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
  }
const rest = await measure('GET /api/posts?limit=20', `${base}/api/posts?limit=20`, { headers, pid: app.pid!, seconds });
const graphql = await measurePost('POST /graphql (seed query)', `${base}/graphql`, JSON.stringify({ query: '{ blogPosts(limit: 5) { nodes { id title publishedAt } } }' }));
app.kill('SIGTERM');

const bare = await startProcess(['bench/bare-server.mjs'], { PORT: '3922' }, 'http://127.0.0.1:3922/');
const baseline = await measure('bare Fastify hello-world', 'http://127.0.0.1:3922/', { pid: bare.pid!, seconds });
bare.kill('SIGTERM');

report([baseline, rest, graphql], baseline);
rmSync(dataDir, { recursive: true, force: true });
