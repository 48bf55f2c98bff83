import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testDatabaseUrl, type TestApp } from '../../../../test/helpers/app.js';
import { FAST, html, startSite } from './test-site.js';

// A `quarry worker` process is SIGKILLed mid-run; another worker must finish the run from the
// shared database (SQLite file or PostgreSQL schema).
let t: TestApp;
let site: Awaited<ReturnType<typeof startSite>>;
const children = new Set<ChildProcess>();

function startWorker(): ChildProcess {
  const schema = t.quarry.ctx.config.databaseSchema;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'test',
    QUARRY_LOG_LEVEL: 'silent',
    QUARRY_DATA_DIR: t.dataDir,
    QUARRY_JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256!!',
    QUARRY_VECTOR: FAST.vector,
    QUARRY_CRAWL_ALLOW_PRIVATE: 'true',
    QUARRY_INGESTION_LEASE_MS: '1500',
    QUARRY_INGESTION_HEARTBEAT_MS: '200',
    QUARRY_INGESTION_SWEEP_MS: '200',
    QUARRY_INGESTION_PARSE_THREADS: '0',
    ...(testDatabaseUrl && schema ? { DATABASE_URL: testDatabaseUrl, QUARRY_DATABASE_SCHEMA: schema } : {}),
  };
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

const kill = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

async function waitForRun(runId: string, until: (run: { status: string; stats: Record<string, number> }) => boolean, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const run = (await t.api('GET', `/v1/runs/${runId}`)).body;
    if (until(run)) return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not reach the expected state`);
}

beforeAll(async () => {
  // A chain of slow pages: the run lasts a few seconds, long enough to kill its worker.
  const pages: Record<string, { body: string; delayMs: number }> = {};
  for (let i = 0; i < 8; i++) pages[`/p${i}`] = { body: html(`Page ${i}`, `Slow page number ${i}.`, i < 7 ? [`/p${i + 1}`] : []), delayMs: 400 };
  site = await startSite(pages);
  t = await startTestApp({ ingestion: { vector: FAST.vector, crawl: { allowPrivate: true } } }, { workers: false });
});
afterAll(async () => {
  await Promise.all([...children].map(kill));
  await t?.close();
  await site?.close();
});

describe('a worker killed mid-run', () => {
  it('loses its lease; another worker takes the run over and finishes it', async () => {
    const projectId = (await t.api('POST', '/v1/projects', { body: { name: 'Crash' } })).body.id;
    const sourceId = (await t.api('POST', '/v1/sources', { body: { projectId, type: 'web', config: { urls: [`${site.url}/p0`], crawlDepth: 10 } } })).body.id;
    const runId = (await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId } })).body.runId;

    const first = startWorker();
    await waitForRun(runId, (r) => r.status === 'running');
    await waitForRun(runId, (r) => (r.stats.pagesFetched ?? 0) >= 1);
    await kill(first);
    expect((await t.api('GET', `/v1/runs/${runId}`)).body.status).toBe('running'); // nobody told the database

    startWorker();
    const run = await waitForRun(runId, (r) => !['queued', 'running'].includes(r.status));
    expect(run).toMatchObject({ status: 'succeeded', attempts: 2, error: null });
    expect(run.stats.pagesFetched).toBe(8);
  }, 90_000);
});
