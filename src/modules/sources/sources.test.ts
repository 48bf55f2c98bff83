import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
let projectId: string;
// Workers off: these tests are about the API, and a queued run must stay queued while they look.
beforeAll(async () => {
  t = await startTestApp({}, { workers: false });
  projectId = (await t.api('POST', '/v1/projects', { body: { name: 'Sources' } })).body.id;
});
afterAll(() => t.close());

const webSource = (extra: Record<string, unknown> = {}) => ({
  projectId,
  type: 'web',
  name: 'Docs site',
  config: { urls: ['https://docs.example.com/guide/'] },
  ...extra,
});
const countSources = async () => (await t.api('GET', `/v1/sources?projectId=${projectId}&limit=100`)).body.data.length;

describe('sources', () => {
  it('creates a web source with defaults, reads, updates and deletes it', async () => {
    const created = await t.api('POST', '/v1/sources', { body: webSource() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      projectId,
      type: 'web',
      name: 'Docs site',
      config: { urls: ['https://docs.example.com/guide/'], crawlDepth: 1 },
      status: 'idle',
      lastRun: null,
      stats: { documents: 0, chunks: 0, pagesCrawled: 0, pagesFailed: 0, lastIngestedAt: null },
    });
    expect(created.body.id).toMatch(/^src_/);
    const id = created.body.id;

    expect((await t.api('GET', `/v1/sources/${id}`)).body).toEqual(created.body);
    const patched = await t.api('PATCH', `/v1/sources/${id}`, { body: { name: 'Guide', config: { crawlDepth: 3 } } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Guide', config: { urls: ['https://docs.example.com/guide/'], crawlDepth: 3 } });

    expect((await t.api('GET', `/v1/projects/${projectId}`)).body.sourceCount).toBeGreaterThanOrEqual(1);
    expect((await t.api('DELETE', `/v1/sources/${id}`)).status).toBe(204);
    expect((await t.api('GET', `/v1/sources/${id}`)).body.error.code).toBe('source_not_found');
    expect((await t.api('PATCH', `/v1/sources/${id}`, { body: { name: 'x' } })).status).toBe(404);
  });

  it('names a source after its first URL when no name is given', async () => {
    const res = await t.api('POST', '/v1/sources', { body: { projectId, type: 'web', config: { urls: ['http://Wiki.Example.org/a'] } } });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('wiki.example.org');
  });

  it('refuses unsupported types with unsupported_source_type', async () => {
    const res = await t.api('POST', '/v1/sources', { body: webSource({ type: 'ftp' }) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('unsupported_source_type');
  });

  it.each([
    ['no urls', { urls: [] }, 'config.urls'],
    ['missing urls', {}, 'config.urls'],
    ['a relative url', { urls: ['/docs'] }, 'config.urls.0'],
    ['an ftp url', { urls: ['ftp://example.com/'] }, 'config.urls.0'],
    ['a url that is not a string', { urls: [42] }, 'config.urls.0'],
    ['too many urls', { urls: Array.from({ length: 101 }, (_, i) => `https://e.com/${i}`) }, 'config.urls'],
    ['negative depth', { urls: ['https://e.com'], crawlDepth: -1 }, 'config.crawlDepth'],
    ['depth over 10', { urls: ['https://e.com'], crawlDepth: 11 }, 'config.crawlDepth'],
    ['fractional depth', { urls: ['https://e.com'], crawlDepth: 1.5 }, 'config.crawlDepth'],
    ['unknown config field', { urls: ['https://e.com'], speed: 'max' }, 'config.speed'],
  ])('rejects a config with %s, naming the field and writing nothing', async (_label, config, field) => {
    const before = await countSources();
    const res = await t.api('POST', '/v1/sources', { body: webSource({ config }) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await countSources()).toBe(before);
  });

  it('rejects bad bodies: missing project, unknown project, unknown field, over-long name', async () => {
    const before = await countSources();
    expect((await t.api('POST', '/v1/sources', { body: { type: 'web', config: { urls: ['https://e.com'] } } })).status).toBe(400);
    const unknown = await t.api('POST', '/v1/sources', { body: webSource({ projectId: 'prj_missing' }) });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'project_not_found']);
    expect((await t.api('POST', '/v1/sources', { body: webSource({ color: 'red' }) })).status).toBe(400);
    expect((await t.api('POST', '/v1/sources', { body: webSource({ name: 'n'.repeat(201) }) })).status).toBe(400);
    expect(await countSources()).toBe(before);
  });

  it('refuses to change type or project, and bad config patches change nothing', async () => {
    const id = (await t.api('POST', '/v1/sources', { body: webSource() })).body.id;
    for (const body of [{ type: 'web' }, { projectId: 'prj_other' }]) {
      const res = await t.api('PATCH', `/v1/sources/${id}`, { body });
      expect([res.status, res.body.error.code]).toEqual([400, 'immutable_field']);
    }
    const bad = await t.api('PATCH', `/v1/sources/${id}`, { body: { config: { urls: ['nope'] } } });
    expect(bad.status).toBe(400);
    expect((await t.api('GET', `/v1/sources/${id}`)).body.config.urls).toEqual(['https://docs.example.com/guide/']);
  });

  it('lists by project with paging and status filter; projectId is required', async () => {
    const missing = await t.api('GET', '/v1/sources');
    expect([missing.status, missing.body.error.code]).toEqual([400, 'invalid_query']);
    expect(missing.body.error.details[0].field).toBe('projectId');
    const unknown = await t.api('GET', '/v1/sources?projectId=prj_nope');
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'project_not_found']);

    const other = (await t.api('POST', '/v1/projects', { body: { name: 'Paging' } })).body.id;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await t.api('POST', '/v1/sources', { body: { projectId: other, type: 'web', config: { urls: [`https://e.com/${i}`] } } })).body.id);
    const first = await t.api('GET', `/v1/sources?projectId=${other}&limit=3`);
    const second = await t.api('GET', `/v1/sources?projectId=${other}&limit=3&page=2`);
    expect(first.body.pagination).toEqual({ page: 1, limit: 3, hasMore: true });
    expect(second.body.pagination).toEqual({ page: 2, limit: 3, hasMore: false });
    expect([...first.body.data, ...second.body.data].map((s: { id: string }) => s.id)).toEqual([...ids].reverse());

    await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId: ids[2] } });
    const queued = await t.api('GET', `/v1/sources?projectId=${other}&status=queued`);
    expect(queued.body.data.map((s: { id: string }) => s.id)).toEqual([ids[2]]);
    const idle = await t.api('GET', `/v1/sources?projectId=${other}&status=idle`);
    expect(idle.body.data).toHaveLength(4);
    expect((await t.api('GET', `/v1/sources?projectId=${other}&status=sleeping`)).status).toBe(400);
  });

  it('refuses new sources in an archived project until it is active again', async () => {
    const archived = (await t.api('POST', '/v1/projects', { body: { name: 'Old', status: 'archived' } })).body.id;
    const res = await t.api('POST', '/v1/sources', { body: webSource({ projectId: archived }) });
    expect([res.status, res.body.error.code]).toEqual([409, 'project_archived']);
    await t.api('PATCH', `/v1/projects/${archived}`, { body: { status: 'active' } });
    expect((await t.api('POST', '/v1/sources', { body: webSource({ projectId: archived }) })).status).toBe(201);
  });

  it('deleting a project removes its sources and runs from every read, then from the database', async () => {
    const doomed = (await t.api('POST', '/v1/projects', { body: { name: 'Doomed' } })).body.id;
    const src = (await t.api('POST', '/v1/sources', { body: webSource({ projectId: doomed }) })).body.id;
    const run = (await t.api('POST', '/v1/trigger/ingestion', { body: { sourceId: src } })).body.runId;
    expect((await t.api('DELETE', `/v1/projects/${doomed}`)).status).toBe(204);
    expect((await t.api('GET', `/v1/sources/${src}`)).status).toBe(404);
    expect((await t.api('GET', `/v1/runs/${run}`)).status).toBe(404);
    expect((await t.api('GET', `/v1/sources?projectId=${doomed}`)).status).toBe(404);
    await t.quarry.ctx.background.drain();
    const db = t.quarry.ctx.db;
    for (const [table, id] of [['projects', doomed], ['sources', src], ['runs', run]] as const) {
      const rows = await db.selectFrom(table).select('id').where('id', '=', id).execute();
      expect(rows, table).toHaveLength(0);
    }
  });
});
