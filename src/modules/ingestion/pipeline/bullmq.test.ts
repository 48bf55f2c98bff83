import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { FAST, html, startSite } from './test-site.js';

// With REDIS_URL, `serve` only enqueues on BullMQ and a worker (here a second app with
// workInServe) consumes. A unique key prefix per test keeps runs apart in the shared Redis.
const REDIS_URL = 'redis://127.0.0.1:6379';
const prefix = `quarry-test-${randomBytes(4).toString('hex')}`;
let api: TestApp;
let worker: TestApp | undefined;
let site: Awaited<ReturnType<typeof startSite>>;

beforeAll(async () => {
  site = await startSite({ '/': { body: html('Queue home', 'Carried over Redis.', ['/next']) }, '/next': { body: html('Next', 'Second page.') } });
  api = await startTestApp({ redisUrl: REDIS_URL, ingestion: { ...FAST, queuePrefix: prefix } });
});
afterAll(async () => {
  await worker?.close();
  await api.close();
  await site.close();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe('BullMQ engine', () => {
  it('serve enqueues on Redis, a worker process on the same database runs it', async () => {
    const projectId = (await api.api('POST', '/v1/projects', { body: { name: 'Queue' } })).body.id;
    const sourceId = (await api.api('POST', '/v1/sources', { body: { projectId, type: 'web', config: { urls: [`${site.url}/`], crawlDepth: 1 } } })).body.id;
    const runId = (await api.api('POST', '/v1/trigger/ingestion', { body: { sourceId } })).body.runId;

    const redis = new Redis(REDIS_URL);
    const waiting = await redis.llen(`${prefix}:ingestion.run:wait`);
    redis.disconnect();
    expect(waiting).toBe(1); // the API process only announced it
    expect((await api.api('GET', `/v1/runs/${runId}`)).body.status).toBe('queued');

    const schema = api.quarry.ctx.config.databaseSchema;
    worker = await startTestApp({ dataDir: api.dataDir, ...(schema ? { databaseSchema: schema } : {}), redisUrl: REDIS_URL, ingestion: { ...FAST, queuePrefix: prefix, workInServe: true } });
    let run = (await api.api('GET', `/v1/runs/${runId}`)).body;
    for (let i = 0; i < 200 && ['queued', 'running'].includes(run.status); i++) {
      await new Promise((r) => setTimeout(r, 50));
      run = (await api.api('GET', `/v1/runs/${runId}`)).body;
    }
    expect(run).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(run.stats.pagesFetched).toBe(2);
  });
});
