// npm run bench:api — throughput of the /v1 read paths against a bare Fastify baseline, same run,
// same machine, same load generator (autocannon, 100 connections). Figures are ratios because the
// machine is shared and noisy.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, report, startProcess } from './lib.js';

const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-'));
const env = { QUARRY_DATA_DIR: dataDir, QUARRY_LOG_LEVEL: 'warn', PORT: '3911', HOST: '127.0.0.1', NODE_ENV: 'development' };
const quarry = ['bin/quarry.js'];

const key = execFileSync(process.execPath, [...quarry, 'keys', 'create', '--name', 'bench', '--permissions', JSON.stringify({ admin: true, rateLimit: { requests: 1e9, windowMs: 900_000 } })], {
  env: { ...process.env, ...env },
  stdio: ['ignore', 'pipe', 'ignore'],
})
  .toString()
  .trim();
const headers = { authorization: `Bearer ${key}` };

const app = await startProcess([...quarry, 'serve'], env, 'http://127.0.0.1:3911/health');
let projectId = '';
for (let i = 0; i < 25; i++) {
  const res = await fetch('http://127.0.0.1:3911/v1/projects', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Bench project ${i}`, description: 'A project for the benchmark', metadata: { team: 'bench', i } }),
  });
  projectId = ((await res.json()) as { id: string }).id;
}
const byId = await measure('GET /v1/projects/{id}', `http://127.0.0.1:3911/v1/projects/${projectId}`, { headers, pid: app.pid! });
const list = await measure('GET /v1/projects?limit=20', 'http://127.0.0.1:3911/v1/projects?limit=20', { headers, pid: app.pid! });
app.kill('SIGTERM');

const bare = await startProcess(['bench/bare-server.mjs'], { PORT: '3912' }, 'http://127.0.0.1:3912/');
const baseline = await measure('bare Fastify hello-world', 'http://127.0.0.1:3912/', { pid: bare.pid! });
bare.kill('SIGTERM');

report([baseline, byId, list], baseline);
process.stdout.write(`\nTarget: GET by id at >= 50% of bare Fastify: ${byId.requestsPerSecond / baseline.requestsPerSecond >= 0.5 ? 'met' : 'NOT met'}\n`);
rmSync(dataDir, { recursive: true, force: true });
