import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
let projectId: string;
const newSource = async (pid = projectId) =>
  (await t.api('POST', '/v1/sources', { body: { projectId: pid, type: 'web', config: { urls: ['https://example.com/'] } } })).body.id as string;

beforeAll(async () => {
  t = await startTestApp({}, { workers: false });
  projectId = (await t.api('POST', '/v1/projects', { body: { name: 'Runs' } })).body.id;
});
afterAll(() => t.close());

describe('ingestion trigger', () => {
  it('queues a run with a Location header and shows it on the source', async () => {
    const sourceId = await newSource();
    const res = await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ runId: expect.stringMatching(/^run_/), sourceId, status: 'queued', queuedAt: expect.any(String) });
    expect(res.headers.get('location')).toBe(`/v1/runs/${res.body.runId}`);

    const run = await t.api('GET', res.headers.get('location')!);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ runId: res.body.runId, sourceId, status: 'queued', startedAt: null, finishedAt: null, error: null });
    const source = await t.api('GET', `/v1/sources/${sourceId}`);
    expect(source.body.status).toBe('queued');
    expect(source.body.lastRun).toEqual({ runId: res.body.runId, status: 'queued', queuedAt: res.body.queuedAt, startedAt: null, finishedAt: null });
  });

  it('answers 404 for unknown sources and runs, 400 for bad bodies', async () => {
    const missing = await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId: 'src_nope' } });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'source_not_found']);
    expect((await t.api('GET', '/v1/runs/run_nope')).body.error.code).toBe('run_not_found');
    expect((await t.api('POST', '/v1/trigger/ingestion', { body: {} })).status).toBe(400);
    expect((await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId: 1 } })).status).toBe(400);
    expect((await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId: 'src_x', force: true } })).status).toBe(400);
  });

  it('refuses a second run while one is queued', async () => {
    const sourceId = await newSource();
    expect((await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId } })).status).toBe(201);
    const again = await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId } });
    expect([again.status, again.body.error.code]).toEqual([409, 'ingestion_in_progress']);
  });

  it('admits exactly one of 50 simultaneous triggers', async () => {
    const sourceId = await newSource();
    const results = await Promise.all(Array.from({ length: 50 }, () => t.api('POST', '/v1/trigger/ingestion', { body: { sourceId } })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const rows = await t.quarry.ctx.db.selectFrom('runs').select('id').where('source_id', '=', sourceId).execute();
    expect(rows).toHaveLength(1);
  });

  it('enforces one active run across processes: the database decides, not memory', async () => {
    const sourceId = await newSource();
    const second = await startTestApp({ dataDir: t.dataDir, ...(t.quarry.ctx.config.databaseSchema ? { databaseSchema: t.quarry.ctx.config.databaseSchema } : {}) }, { workers: false });
    try {
      const [a, b] = await Promise.all([
        t.api('POST', '/v1/trigger/ingestion', { body: { sourceId } }),
        second.api('POST', '/v1/trigger/ingestion', { body: { sourceId } }),
      ]);
      expect([a.status, b.status].sort()).toEqual([201, 409]);
    } finally {
      await second.app.close();
      await second.quarry.ctx.close();
    }
  });

  it('refuses triggers in an archived project', async () => {
    const pid = (await t.api('POST', '/v1/projects', { body: { name: 'Archived runs' } })).body.id;
    const sourceId = await newSource(pid);
    await t.api('PATCH', `/v1/projects/${pid}`, { body: { status: 'archived' } });
    const res = await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId } });
    expect([res.status, res.body.error.code]).toEqual([409, 'project_archived']);
  });

  it('deleting a source cancels its queued run and hides it', async () => {
    const sourceId = await newSource();
    const runId = (await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId } })).body.runId;
    expect((await t.api('DELETE', `/v1/sources/${sourceId}`)).status).toBe(204);
    expect((await t.api('GET', `/v1/runs/${runId}`)).status).toBe(404);
  });
});
