import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const create = (body: unknown) => t.api('POST', '/v1/projects', { body });
const count = async () => (await t.api('GET', '/v1/projects?limit=100')).body.data.length;

describe('projects', () => {
  it('creates, reads, updates and deletes a project', async () => {
    const created = await create({ name: 'Handbook', description: 'Team docs', metadata: { team: 'ops' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Handbook', description: 'Team docs', status: 'active', metadata: { team: 'ops' }, features: {} });
    expect(created.body.id).toMatch(/^prj_[0-9a-z]{26}$/);
    expect(created.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const got = await t.api('GET', `/v1/projects/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: created.body.id, sourceCount: 0, counts: { sources: 0 } });

    const patched = await t.api('PATCH', `/v1/projects/${created.body.id}`, { body: { name: 'Handbook 2', status: 'archived' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Handbook 2', status: 'archived', description: 'Team docs' });
    expect(patched.body.updatedAt >= created.body.updatedAt).toBe(true);

    const deleted = await t.api('DELETE', `/v1/projects/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await t.api('GET', `/v1/projects/${created.body.id}`)).body.error.code).toBe('project_not_found');
    expect((await t.api('DELETE', `/v1/projects/${created.body.id}`)).status).toBe(404);
  });

  it.each([
    ['missing name', {}, 'name'],
    ['empty name', { name: '' }, 'name'],
    ['blank name', { name: '   ' }, 'name'],
    ['name too long', { name: 'x'.repeat(201) }, 'name'],
    ['description too long', { name: 'a', description: 'x'.repeat(2001) }, 'description'],
    ['wrong type', { name: 42 }, 'name'],
    ['unknown field', { name: 'a', owner: 'me' }, 'owner'],
    ['bad status', { name: 'a', status: 'deleted' }, 'status'],
    ['metadata not an object', { name: 'a', metadata: [1] }, 'metadata'],
    ['metadata over 16 KB', { name: 'a', metadata: { blob: 'x'.repeat(17 * 1024) } }, 'metadata'],
  ])('rejects %s with a 400 naming the field and writes nothing', async (_label, body, field) => {
    const before = await count();
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await count()).toBe(before);
  });

  it('answers malformed JSON, wrong content type and huge bodies with the right codes', async () => {
    const before = await count();
    const bad = await t.api('POST', '/v1/projects', { raw: '{"name":', headers: { 'content-type': 'application/json' } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_json']);
    const text = await t.api('POST', '/v1/projects', { raw: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect([text.status, text.body.error.code]).toEqual([415, 'unsupported_media_type']);
    const form = await t.api('POST', '/v1/projects', { raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([form.status, form.body.error.code]).toEqual([415, 'unsupported_media_type']);
    const huge = await t.api('POST', '/v1/projects', { body: { name: 'a', description: 'x'.repeat(2 * 1024 * 1024) } });
    expect([huge.status, huge.body.error.code]).toEqual([413, 'payload_too_large']);
    const patchUnknown = await t.api('PATCH', '/v1/projects/prj_x', { body: { nope: 1 } });
    expect(patchUnknown.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it('answers unknown routes and wrong methods in the error shape', async () => {
    const missing = await t.api('GET', '/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('route_not_found');
    const wrong = await t.api('PUT', '/v1/projects');
    expect(wrong.status).toBe(405);
    expect(wrong.body.error.code).toBe('method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('GET, POST');
  });
});

describe('project listing', () => {
  let ids: string[];
  beforeAll(async () => {
    const list = await startTestApp();
    await list.close();
    ids = [];
    for (let i = 0; i < 7; i++) ids.push((await create({ name: `Listing ${i}`, description: i % 2 ? 'Alpha docs' : 'beta notes' })).body.id);
    await t.api('PATCH', `/v1/projects/${ids[0]}`, { body: { status: 'archived' } });
  });

  it('pages newest first, stable and complete across pages', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await t.api('GET', `/v1/projects?limit=2&page=${page}&search=listing`);
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ page, limit: 2, hasMore: page < 4 });
      seen.push(...res.body.data.map((p: { id: string }) => p.id));
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('defaults to page 1 and 20 items, and refuses bad paging', async () => {
    const res = await t.api('GET', '/v1/projects');
    expect(res.body.pagination).toMatchObject({ page: 1, limit: 20 });
    for (const q of ['limit=101', 'limit=0', 'page=0', 'page=abc', 'limit=-1', 'status=gone', 'unknown=1']) {
      const bad = await t.api('GET', `/v1/projects?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.error.code, q).toBe('invalid_query');
    }
    const empty = await t.api('GET', '/v1/projects?page=999');
    expect(empty.body).toEqual({ data: [], pagination: { page: 999, limit: 20, hasMore: false } });
  });

  it('searches name or description case-insensitively and filters by status', async () => {
    const alpha = await t.api('GET', '/v1/projects?search=ALPHA&limit=100');
    expect(alpha.body.data.map((p: { id: string }) => p.id).sort()).toEqual([ids[1], ids[3], ids[5]].sort());
    const named = await t.api('GET', '/v1/projects?search=listing%206');
    expect(named.body.data.map((p: { id: string }) => p.id)).toEqual([ids[6]]);
    const literal = await t.api('GET', '/v1/projects?search=%25');
    expect(literal.body.data).toEqual([]);
    const archived = await t.api('GET', '/v1/projects?status=archived&search=listing');
    expect(archived.body.data.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
  });
});
