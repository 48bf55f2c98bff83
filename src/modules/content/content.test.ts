import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { dialectUnderTest, startTestApp, type TestApp } from '../../../test/helpers/app.js';
import { ConfigError } from '../../kernel/config/load.js';
import { resolveModels } from './models.js';

let t: TestApp;
let authorId: string;
beforeAll(async () => {
  t = await startTestApp();
  authorId = (await t.quarry.services.users.create({ email: 'author@example.test', name: 'Ada', password: 'correct horse 1', role: 'editor' })).id;
});
afterAll(() => t.close());

const post = (over: Record<string, unknown> = {}) => ({ title: 'Hello', slug: `s-${Math.random().toString(36).slice(2)}`, ...over });

describe('content records over REST', () => {
  it('creates, reads, updates and deletes a post with defaults and system fields', async () => {
    const created = await t.api('POST', '/api/posts', { body: post({ body: '# Hi', tags: ['a', 'b'], author: authorId }) });
    expect(created.status).toBe(201);
    const rec = created.body.data;
    expect(rec).toMatchObject({ title: 'Hello', status: 'draft', tags: ['a', 'b'], author: authorId, cover: null, publishedAt: null });
    expect(rec.createdAt).toMatch(/Z$/);
    const got = await t.api('GET', `/api/posts/${rec.id}`, { token: null });
    expect(got.body.data).toEqual(rec);
    const patched = await t.api('PATCH', `/api/posts/${rec.id}`, { body: { status: 'published', publishedAt: '2026-01-02T03:04:05Z' } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ status: 'published', publishedAt: '2026-01-02T03:04:05.000Z', title: 'Hello' });
    expect((await t.api('DELETE', `/api/posts/${rec.id}`)).status).toBe(204);
    const gone = await t.api('GET', `/api/posts/${rec.id}`);
    expect([gone.status, gone.body.error.code]).toEqual([404, 'record_not_found']);
  });

  it.each([
    ['missing title', { slug: 'x1' }, 'title'],
    ['number as title', { title: 5, slug: 'x2' }, 'title'],
    ['unknown option', { title: 'a', slug: 'x3', status: 'archived' }, 'status'],
    ['bad date', { title: 'a', slug: 'x4', publishedAt: 'yesterday' }, 'publishedAt'],
    ['tags not text', { title: 'a', slug: 'x5', tags: [1] }, 'tags'],
    ['unknown field', { title: 'a', slug: 'x6', colour: 'red' }, 'colour'],
    ['missing author', { title: 'a', slug: 'x7', author: 'usr_nobody' }, 'author'],
    ['missing cover file', { title: 'a', slug: 'x8', cover: 'fil_nothing' }, 'cover'],
  ])('refuses %s with 400 naming the field and writes nothing', async (_label, body, field) => {
    const before = (await t.api('GET', '/api/posts?limit=100')).body.data.length;
    const res = await t.api('POST', '/api/posts', { body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await t.api('GET', '/api/posts?limit=100')).body.data.length).toBe(before);
  });

  it('enforces unique fields with 409 field_not_unique', async () => {
    await t.api('POST', '/api/posts', { body: post({ slug: 'taken' }) });
    const dup = await t.api('POST', '/api/posts', { body: post({ slug: 'taken' }) });
    expect([dup.status, dup.body.error.code, dup.body.error.details[0].field]).toEqual([409, 'field_not_unique', 'slug']);
  });

  it('answers unknown models and records with 404s, and keeps other routes winning', async () => {
    const res = await t.api('GET', '/api/widgets');
    expect([res.status, res.body.error.code]).toEqual([404, 'model_not_found']);
    expect((await t.api('POST', '/api/widgets/abc', { body: {} })).body.error.code).toBe('model_not_found');
    expect((await t.api('GET', '/api/posts/nope')).body.error.code).toBe('record_not_found');
    expect((await t.api('GET', '/api/admin/api-keys')).status).toBe(200);
    expect((await t.api('GET', '/api/upload')).body.error.code).toBe('route_not_found');
    expect((await t.api('GET', '/api/auth/nothing-here')).body.error.code).toBe('provider_not_found');
  });
});

describe('cookie sessions', () => {
  it('refuse cross-site writes to content, uploads and GraphQL but allow same-site ones', async () => {
    const editor = await t.quarry.services.users.create({ email: 'csrf@example.test', name: 'C', password: 'correct horse 1', role: 'editor' });
    const session = await t.api('POST', '/api/auth/session', { token: (await t.quarry.services.users.issueToken(editor)).token });
    expect(session.status).toBe(201);
    const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
    const evil = { cookie, origin: 'https://evil.example' };
    const write = (headers: Record<string, string>) => t.api('POST', '/api/posts', { token: null, headers, body: { title: 'c', slug: `c-${headers.origin!.length}` } });
    expect((await write(evil)).status).toBe(403);
    expect((await write({ cookie, origin: t.url })).status).toBe(201);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(Buffer.from('hi'))]), 'a.txt');
    const upload = await fetch(`${t.url}/api/upload`, { method: 'POST', body: form, headers: evil });
    expect(upload.status).toBe(403);
    const gql = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { ...evil, 'content-type': 'text/plain' }, body: JSON.stringify({ query: 'mutation { createPost(data: { title: "x", slug: "gx" }) { id } }' }) });
    expect(gql.status).toBeGreaterThanOrEqual(400);
    expect((await t.api('GET', '/api/posts?where[slug]=gx')).body.data).toEqual([]);
  });
});

describe('filtering and sorting', () => {
  beforeAll(async () => {
    const rows = [
      { title: 'Charlie', slug: 'f-c', status: 'published', publishedAt: '2026-03-01T00:00:00Z', tags: ['x'] },
      { title: 'alpha', slug: 'f-a', status: 'published', publishedAt: '2026-01-01T00:00:00Z', tags: ['x', 'y'] },
      { title: 'Bravo', slug: 'f-b', status: 'draft', publishedAt: '2026-02-01T00:00:00Z', tags: ['y'] },
    ];
    for (const r of rows) expect((await t.api('POST', '/api/blogPosts', { body: r })).status).toBe(201);
  });
  const slugs = async (q: string) => {
    const res = await t.api('GET', `/api/blogPosts?${q}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((r: { slug: string }) => r.slug);
  };

  it('filters by equality, comparison, in, contains and array membership', async () => {
    expect(await slugs('where[status]=published&sort=publishedAt')).toEqual(['f-a', 'f-c']);
    expect(await slugs('where[publishedAt][gte]=2026-02-01T00:00:00Z&sort=-publishedAt')).toEqual(['f-c', 'f-b']);
    expect(await slugs('where[slug][in]=f-a,f-b&sort=slug')).toEqual(['f-a', 'f-b']);
    expect(await slugs('where[title][contains]=RAV')).toEqual(['f-b']);
    expect(await slugs('where[tags][contains]=y&sort=slug')).toEqual(['f-a', 'f-b']);
    expect(await slugs('where[status][ne]=published')).toEqual(['f-b']);
    expect(await slugs('where[cover][exists]=false&sort=-slug&limit=2')).toEqual(['f-c', 'f-b']);
  });

  it('sorts empty values last in both directions on both databases', async () => {
    for (const [slug, publishedAt] of [['n-1', '2026-01-01T00:00:00Z'], ['n-none', null], ['n-2', '2026-02-01T00:00:00Z']])
      await t.api('POST', '/api/posts', { body: { title: 'nullsort', slug, publishedAt } });
    const order = async (sort: string) => (await t.api('GET', `/api/posts?where[title]=nullsort&sort=${sort}`)).body.data.map((r: { slug: string }) => r.slug);
    expect(await order('publishedAt')).toEqual(['n-1', 'n-2', 'n-none']);
    expect(await order('-publishedAt')).toEqual(['n-2', 'n-1', 'n-none']);
  });

  it.skipIf(dialectUnderTest === 'postgres')('lists what another process just wrote (the list cache is exact)', async () => {
    const created = (await t.api('POST', '/api/posts', { body: post({ title: 'Before' }) })).body.data;
    const titles = async () => (await t.api('GET', '/api/posts?limit=100')).body.data.map((r: { title: string }) => r.title);
    expect(await titles()).toContain('Before');
    // A CLI or worker process writing the same SQLite file: not counted by this process's writes.
    const other = new Database(join(t.dataDir, 'quarry.db'));
    expect(other.prepare('update content_posts set title = ? where id = ?').run('After', created.id).changes).toBe(1);
    other.close();
    expect(await titles()).toContain('After');
    expect(await titles()).not.toContain('Before');
  });

  it('pages with the list envelope', async () => {
    const res = await t.api('GET', '/api/blogPosts?sort=slug&limit=2&page=2');
    expect(res.body.pagination).toEqual({ page: 2, limit: 2, hasMore: false });
    expect(res.body.data.map((r: { slug: string }) => r.slug)).toEqual(['f-c']);
  });

  it.each([
    ['where[nope]=1', 'where[nope]'],
    ['where[status][like]=x', 'where[status][like]'],
    ['where[publishedAt][gt]=soon', 'where[publishedAt][gt]'],
    ['where[tags][eq]=x', 'where[tags][eq]'],
    ['sort=-nothing', 'sort'],
    ['sort=tags', 'sort'],
    ['filter=1', 'filter'],
    ['limit=500', 'limit'],
  ])('refuses %s with invalid_query naming the parameter', async (q, field) => {
    const res = await t.api('GET', `/api/blogPosts?${q}`);
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_query']);
    expect(res.body.error.details.map((d: { field: string }) => d.field).join()).toContain(field);
  });
});

describe('model configuration', () => {
  it.each([
    [{ widgets: { fields: { kind: { type: 'select' } } } }, 'models.widgets.fields.kind'],
    [{ widgets: { fields: { owner: { type: 'relation', to: 'gadgets' } } } }, 'models.widgets.fields.owner'],
    [{ files: { fields: { a: { type: 'text' } } } }, 'models.files'],
    [{ widgets: { fields: { id: { type: 'text' } } } }, 'models.widgets.fields.id'],
    [{ widgets: { fields: { n: { type: 'number', default: 'x' } } } }, 'models.widgets.fields.n.default'],
    [{ widgets: { fields: { a: { type: 'text' } }, access: { delete: ['public'] } } }, 'models.widgets.access.delete'],
  ])('stops start-up naming model and field (%#)', (models, where) => {
    expect(() => resolveModels(models as never)).toThrow(ConfigError);
    expect(() => resolveModels(models as never)).toThrow(where);
  });

  it('adds new columns for new fields on start-up and refuses type changes', async () => {
    const base = { notes: { fields: { title: { type: 'text' } } } };
    const a = await startTestApp({ models: base });
    try {
      expect((await a.api('POST', '/api/notes', { body: { title: 'one' } })).status).toBe(201);
      const { createContentSurface } = await import('./wiring.js');
      const deps = { apiKeys: a.quarry.services.apiKeys, ingestion: a.quarry.services.ingestion };
      const ctx = a.quarry.ctx;
      const grown = { ...ctx, config: { ...ctx.config, models: { notes: { fields: { title: { type: 'text' }, score: { type: 'number' } } } } } };
      await createContentSurface(grown as never, deps);
      const changed = { ...ctx, config: { ...ctx.config, models: { notes: { fields: { title: { type: 'number' } } } } } };
      await expect(createContentSurface(changed as never, deps)).rejects.toThrow('models.notes.fields.title');
    } finally {
      await a.close();
    }
  });
});
