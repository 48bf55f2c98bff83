import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { FAST, html, startSite } from './test-site.js';

let t: TestApp;
let site: Awaited<ReturnType<typeof startSite>>;
let projectId: string;
const finished: Array<{ runId: string; status: string }> = [];


const newSource = async (urls: string[], crawlDepth = 2) =>
  (await t.api('POST', '/v1/sources', { body: { projectId, type: 'web', config: { urls, crawlDepth } } })).body.id as string;
const trigger = async (sourceId: string) => (await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId } })).body.runId as string;
async function waitFor(runId: string, done = (s: string) => !['queued', 'running'].includes(s)) {
  for (let i = 0; i < 200; i++) {
    const run = (await t.api('GET', `/v1/runs/${runId}`)).body;
    if (done(run.status)) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${runId} did not finish`);
}

beforeAll(async () => {
  site = await startSite({
    '/': { body: html('Home', 'Welcome to the quarry test site about granite.', ['/a', '/b', '/broken']), etag: '"home1"' },
    '/a': { body: html('Alpha', 'Alpha page talks about basalt columns.', ['/', '/b']), etag: '"a1"' },
    '/b': { body: html('Beta', 'Beta page talks about marble statues.', ['/c']) },
    '/c': { body: html('Gamma', 'Gamma is three hops away.') },
    '/broken': { status: 500, body: 'boom' },
    '/slow': { body: html('Slow', 'slow', ['/slow2']), delayMs: 1500 },
    '/slow2': { body: html('Slow 2', 'slow'), delayMs: 1500 },
  });
  // One run at a time, so a second source's run stays queued while the first one runs.
  t = await startTestApp({ ingestion: { ...FAST, runConcurrency: 1 } });
  t.quarry.services.ingestion.onRunFinished((run) => void finished.push({ runId: run.runId, status: run.status }));
  projectId = (await t.api('POST', '/v1/projects', { body: { name: 'Runs' } })).body.id;
});
afterAll(async () => {
  await t.close();
  await site.close();
});

describe('ingestion runs', () => {
  it('crawls a small site end to end and counts what happened', async () => {
    const sourceId = await newSource([`${site.url}/`], 2);
    const runId = await trigger(sourceId);
    const run = await waitFor(runId);
    expect(run).toMatchObject({ status: 'succeeded', error: null, attempts: 1 });
    expect(run.startedAt).toEqual(expect.any(String));
    expect(run.finishedAt).toEqual(expect.any(String));
    // '/', '/a', '/b' fetched, '/c' at depth 2, '/broken' fails with 500
    expect(run.stats).toMatchObject({ pagesFetched: 4, pagesFailed: 1, documents: 4, pagesUnchanged: 0 });
    expect(run.stats.chunks).toBeGreaterThanOrEqual(4);
    expect(run.stats.bytes).toBeGreaterThan(0);
    // The hook runs once the end is committed, so a poll can see `succeeded` a moment before it.
    await vi.waitFor(() => expect(finished).toContainEqual({ runId, status: 'succeeded' }), { timeout: 5000 });

    const errors = await t.api('GET', `/v1/runs/${runId}/errors`);
    expect(errors.status).toBe(200);
    expect(errors.body.data).toEqual([{ url: `${site.url}/broken`, status: 500, reason: expect.any(String), at: expect.any(String) }]);

    const source = (await t.api('GET', `/v1/sources/${sourceId}`)).body;
    expect(source.status).toBe('succeeded');
    expect(source.stats).toMatchObject({ documents: 4, pagesCrawled: 4, pagesFailed: 1, lastIngestedAt: expect.any(String) });

    const docs = await t.api('GET', `/v1/sources/${sourceId}/documents?limit=100`);
    expect(docs.body.data.map((d: { url: string }) => d.url).sort()).toEqual([`${site.url}/`, `${site.url}/a`, `${site.url}/b`, `${site.url}/c`]);
    const search = await t.api('POST', `/v1/projects/${projectId}/search`, { body: { query: 'basalt columns', mode: 'keyword' } });
    expect(search.status).toBe(200);
    expect(search.body.data[0]).toMatchObject({ url: `${site.url}/a`, sourceId });

    // Re-ingest: ETag pages answer 304, others hash the same; a removed page goes.
    delete site.pages['/c'];
    const again = await waitFor(await trigger(sourceId));
    expect(again.status).toBe('succeeded');
    expect(again.stats).toMatchObject({ pagesUnchanged: 3, documents: 0, pagesRemoved: 1 });
    site.pages['/c'] = { body: html('Gamma', 'Gamma is three hops away.') };
  });

  it('fails a run when nothing can be fetched, with a reason', async () => {
    const sourceId = await newSource([`${site.url}/broken`], 0);
    const run = await waitFor(await trigger(sourceId));
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/No page could be fetched/);
    expect(run.stats.pagesFailed).toBe(1);
    const source = (await t.api('GET', `/v1/sources/${sourceId}`)).body;
    expect([source.status, source.stats.pagesFailed, source.stats.lastIngestedAt]).toEqual(['failed', 1, null]);
  });

  it('keeps indexed pages when a run sees less than half of them', async () => {
    const sourceId = await newSource([`${site.url}/`], 2);
    expect((await waitFor(await trigger(sourceId))).stats.documents).toBe(4);
    const saved = { ...site.pages };
    for (const p of ['/a', '/b', '/c']) delete site.pages[p];
    const run = await waitFor(await trigger(sourceId));
    Object.assign(site.pages, saved);
    expect(run.status).toBe('succeeded');
    expect(run.stats.pagesRemoved).toBe(0);
    expect((await t.api('GET', `/v1/sources/${sourceId}`)).body.stats.documents).toBe(4);
  });

  it('cancels a running run within two seconds, and answers 409 once finished', async () => {
    const sourceId = await newSource([`${site.url}/slow`], 1);
    const runId = await trigger(sourceId);
    await waitFor(runId, (s) => s === 'running');
    const res = await t.api('POST', `/v1/runs/${runId}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ runId, status: 'cancelled', finishedAt: expect.any(String) });
    expect((await t.api('GET', `/v1/runs/${runId}`)).body.status).toBe('cancelled');
    const again = await t.api('POST', `/v1/runs/${runId}/cancel`);
    expect([again.status, again.body.error.code]).toEqual([409, 'run_not_active']);
    expect(finished.filter((f) => f.runId === runId)).toEqual([{ runId, status: 'cancelled' }]);
    // The source takes a new run at once: the cancelled one no longer holds the slot.
    const next = await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId } });
    expect(next.status).toBe(201);
    await waitFor(next.body.runId, (s) => s === 'running');

    // With one run at a time, another source's run waits queued; it can be cancelled there.
    const queuedId = await trigger(await newSource([`${site.url}/c`], 0));
    expect((await t.api('GET', `/v1/runs/${queuedId}`)).body.status).toBe('queued');
    const cancelled = await t.api('POST', `/v1/runs/${queuedId}/cancel`);
    expect([cancelled.status, cancelled.body.status, cancelled.body.startedAt]).toEqual([200, 'cancelled', null]);
    expect((await t.api('POST', `/v1/runs/${next.body.runId}/cancel`)).status).toBe(200);
  });

  it('fails a run whose workers kept dying once attempts run out', async () => {
    const sourceId = await newSource([`${site.url}/slow`], 1);
    const runId = await trigger(sourceId);
    await waitFor(runId, (s) => s === 'running');
    // As if three workers had claimed it and died: someone else's lease, expired, attempts spent.
    await t.quarry.ctx.db.updateTable('runs').set({ lease_owner: 'dead-worker', lease_expires_at: '2000-01-01T00:00:00.000Z', attempts: 3 }).where('id', '=', runId).execute();
    const run = await waitFor(runId);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/stopped responding 3 times/);
    await vi.waitFor(() => expect(finished).toContainEqual({ runId, status: 'failed' }), { timeout: 5000 });
  });

  it('lists runs newest first with paging; unknown ids answer 404', async () => {
    const sourceId = await newSource([`${site.url}/c`], 0);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await trigger(sourceId));
      await waitFor(ids.at(-1)!);
    }
    const first = await t.api('GET', `/v1/sources/${sourceId}/runs?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((r: { runId: string }) => r.runId)).toEqual([ids[2], ids[1]]);
    expect(first.body.pagination).toEqual({ page: 1, limit: 2, hasMore: true });
    const second = await t.api('GET', `/v1/sources/${sourceId}/runs?limit=2&page=2`);
    expect(second.body.data.map((r: { runId: string }) => r.runId)).toEqual([ids[0]]);
    expect(second.body.pagination.hasMore).toBe(false);
    expect((await t.api('GET', '/v1/sources/src_nope/runs')).body.error.code).toBe('source_not_found');
    expect((await t.api('GET', '/v1/runs/run_nope/errors')).body.error.code).toBe('run_not_found');
    expect((await t.api('POST', '/v1/runs/run_nope/cancel')).body.error.code).toBe('run_not_found');
    expect((await t.api('GET', `/v1/sources/${sourceId}/runs?limit=500`)).status).toBe(400);
  });

  it('deleting a source mid-run stops the run', async () => {
    const sourceId = await newSource([`${site.url}/slow`], 1);
    const runId = await trigger(sourceId);
    await waitFor(runId, (s) => s === 'running');
    expect((await t.api('DELETE', `/v1/sources/${sourceId}`)).status).toBe(204);
    expect((await t.api('GET', `/v1/runs/${runId}`)).status).toBe(404);
    const row = await t.quarry.ctx.db.selectFrom('runs').select(['status']).where('id', '=', runId).executeTakeFirst();
    expect(row === undefined || row.status === 'cancelled').toBe(true);
  });

  it('checks permissions: read to see runs, update to cancel', async () => {
    const sourceId = await newSource([`${site.url}/c`], 0);
    const runId = await trigger(sourceId);
    await waitFor(runId);
    const reader = await t.key({ models: { ingestion: ['read'] } });
    expect((await t.api('GET', `/v1/runs/${runId}`, { token: reader })).status).toBe(200);
    expect((await t.api('GET', `/v1/sources/${sourceId}/runs`, { token: reader })).status).toBe(200);
    expect((await t.api('GET', `/v1/runs/${runId}/errors`, { token: reader })).status).toBe(200);
    expect((await t.api('POST', `/v1/runs/${runId}/cancel`, { token: reader })).status).toBe(403);
    const none = await t.key({ models: { projects: ['read'] } });
    expect((await t.api('GET', `/v1/runs/${runId}`, { token: none })).status).toBe(403);
  });
});
