import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
let editorToken: string;
beforeAll(async () => {
  t = await startTestApp();
  const editor = await t.quarry.services.users.create({ email: 'ed@example.test', name: 'Ed', password: 'correct horse 1', role: 'editor' });
  editorToken = (await t.quarry.services.users.issueToken(editor)).token;
});
afterAll(() => t.close());

describe('API key administration', () => {
  it('creates a key (plaintext once), lists it without secrets, edits and revokes it at once', async () => {
    const created = await t.api('POST', '/api/admin/api-keys', { body: { name: 'site', permissions: { models: { posts: ['read', 'create'] } } } });
    expect(created.status).toBe(201);
    const { key, id } = created.body.data;
    expect(key).toMatch(/^qk_/);
    expect(created.body.data).toMatchObject({ name: 'site', prefix: key.slice(0, 11), permissions: { models: { posts: ['read', 'create'] }, admin: false }, lastUsedAt: null });

    expect((await t.api('POST', '/api/posts', { token: key, body: { title: 'k', slug: 'by-key' } })).status).toBe(201);
    expect((await t.api('DELETE', '/api/blogPosts/x', { token: key })).status).toBe(403);

    const list = await t.api('GET', '/api/admin/api-keys?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.pagination).toMatchObject({ page: 1, limit: 100, hasMore: false });
    const listed = list.body.data.find((k: { id: string }) => k.id === id);
    expect(Object.keys(listed).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'permissions', 'prefix']);
    expect(list.text).not.toContain(key);

    const patched = await t.api('PATCH', `/api/admin/api-keys/${id}`, { body: { name: 'site 2', permissions: { models: { posts: ['read'] } } } });
    expect(patched.body.data).toMatchObject({ name: 'site 2', permissions: { models: { posts: ['read'] } } });
    expect((await t.api('POST', '/api/posts', { token: key, body: { title: 'k', slug: 'by-key-2' } })).status).toBe(403);

    expect((await t.api('DELETE', `/api/admin/api-keys/${id}`)).status).toBe(204);
    const after = await t.api('GET', '/api/posts', { token: key });
    expect([after.status, after.body.error.code]).toEqual([401, 'unauthorized']);
    expect((await t.api('DELETE', `/api/admin/api-keys/${id}`)).body.error.code).toBe('api_key_not_found');
  });

  it.each([
    [{ models: { widgets: ['read'] } }, 'permissions.models.widgets'],
    [{ models: { posts: ['publish'] } }, 'permissions.models.posts.0'],
    [{ rateLimit: { requests: 0, windowMs: 60000 } }, 'permissions.rateLimit.requests'],
    [{ superuser: true }, 'permissions.superuser'],
  ])('validates the permission document (%#)', async (permissions, field) => {
    const res = await t.api('POST', '/api/admin/api-keys', { body: { name: 'bad', permissions } });
    expect([res.status, res.body.error.code]).toEqual([400, 'validation_failed']);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('accepts files and the /v1 resources in permissions', async () => {
    const res = await t.api('POST', '/api/admin/api-keys', { body: { name: 'ok', permissions: { models: { files: ['create'], projects: ['read'], sources: ['read'], ingestion: ['create'] } } } });
    expect(res.status).toBe(201);
  });

  it('refuses non-admin callers', async () => {
    const readKey = await t.key({ models: { posts: ['read', 'create', 'update', 'delete'] } });
    for (const token of [readKey, editorToken]) {
      expect((await t.api('GET', '/api/admin/api-keys', { token })).status).toBe(403);
      expect((await t.api('POST', '/api/admin/api-keys', { token, body: { name: 'x' } })).status).toBe(403);
    }
    expect((await t.api('GET', '/api/admin/api-keys', { token: null })).status).toBe(401);
  });

  it('enforces each key\'s own rate limit on /api with X-RateLimit headers', async () => {
    const limited = await t.key({ models: { posts: ['read'] }, rateLimit: { requests: 3, windowMs: 60_000 } });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await t.api('GET', '/api/posts', { token: limited });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('3');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(last!.body.error.code).toBe('rate_limited');
    // Another key is unaffected.
    expect((await t.api('GET', '/api/posts')).status).toBe(200);
  });
});
