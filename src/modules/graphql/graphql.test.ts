import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
let authorId: string;
let fileId: string;
beforeAll(async () => {
  t = await startTestApp({ graphql: { maxDepth: 4, maxCost: 500 } });
  authorId = (await t.quarry.services.users.create({ email: 'a@example.test', name: 'Ada', password: 'correct horse 1', role: 'editor' })).id;
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#000' } }).png().toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)]), 'c.png');
  fileId = (await (await fetch(`${t.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${t.adminKey}` } })).json()).data.id;
  for (let i = 1; i <= 7; i++)
    await t.api('POST', '/api/blogPosts', {
      body: { title: `Post ${i}`, slug: `p${i}`, status: i % 2 ? 'published' : 'draft', publishedAt: `2026-01-0${i}T00:00:00Z`, author: authorId, cover: fileId },
    });
});
afterAll(() => t.close());

const gql = async (query: string, variables?: Record<string, unknown>, token: string | null = null) => t.api('POST', '/graphql', { token, body: { query, variables } });

describe('GraphQL', () => {
  it('answers the seed sample as written', async () => {
    const res = await gql('{ blogPosts(limit: 5) { nodes { id title publishedAt } } }');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.blogPosts.nodes).toHaveLength(5);
    expect(Object.keys(res.body.data.blogPosts.nodes[0])).toEqual(['id', 'title', 'publishedAt']);
  });

  it('filters, sorts and pages with totalCount and pageInfo', async () => {
    const res = await gql('query($w: BlogPostWhere) { blogPosts(limit: 2, offset: 1, where: $w, sort: ["-publishedAt"]) { nodes { slug } totalCount pageInfo { hasNextPage hasPreviousPage } } }', {
      w: { status: { eq: 'published' } },
    });
    expect(res.body.data.blogPosts).toEqual({ nodes: [{ slug: 'p5' }, { slug: 'p3' }], totalCount: 4, pageInfo: { hasNextPage: true, hasPreviousPage: true } });
  });

  it('resolves relations in one batch per relation field (no N+1)', async () => {
    const users = vi.spyOn(t.quarry.services.content.content, 'usersByIds');
    const files = vi.spyOn(t.quarry.services.content.files, 'getMany');
    const res = await gql('{ blogPosts(limit: 7) { nodes { title author { id name } cover { id mimeType width } } } }');
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.blogPosts.nodes;
    expect(nodes).toHaveLength(7);
    expect(nodes[0].author).toEqual({ id: authorId, name: 'Ada' });
    expect(nodes[0].cover).toMatchObject({ id: fileId, mimeType: 'image/png', width: 40 });
    expect(users).toHaveBeenCalledTimes(1);
    expect(files).toHaveBeenCalledTimes(1);
    users.mockRestore();
    files.mockRestore();
  });

  it('creates, updates and deletes through mutations with the key\'s permissions', async () => {
    const key = await t.key({ models: { blogPosts: ['create', 'update', 'delete', 'read'] } });
    const created = await gql('mutation { createBlogPost(data: { title: "G", slug: "g1", tags: ["x"] }) { id status tags } }', undefined, key);
    expect(created.body.data.createBlogPost).toMatchObject({ status: 'draft', tags: ['x'] });
    const id = created.body.data.createBlogPost.id;
    const updated = await gql('mutation($id: ID!) { updateBlogPost(id: $id, data: { status: "published" }) { status } }', { id }, key);
    expect(updated.body.data.updateBlogPost.status).toBe('published');
    const deleted = await gql('mutation($id: ID!) { deleteBlogPost(id: $id) { id } }', { id }, key);
    expect(deleted.body.data.deleteBlogPost.id).toBe(id);
    expect((await gql('query($id: ID!) { blogPost(id: $id) { id } }', { id })).body.data.blogPost).toBeNull();
  });

  it('reports validation errors with the field in extensions', async () => {
    const res = await gql('mutation { createBlogPost(data: { title: "x", slug: "v", status: "archived" }) { id } }', undefined, t.adminKey);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', details: [{ field: 'status' }] });
    const dup = await gql('mutation { createBlogPost(data: { title: "x", slug: "p1" }) { id } }', undefined, t.adminKey);
    expect(dup.body.errors[0].extensions.code).toBe('field_not_unique');
  });

  it('answers malformed and unknown queries in the GraphQL error format', async () => {
    const syntax = await gql('{ blogPosts(limit: ');
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors[0].message).toMatch(/Syntax Error/);
    const unknown = await gql('{ widgets { nodes { id } } }');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].message).toMatch(/widgets/);
    const badLimit = await gql('{ blogPosts(limit: 0) { nodes { id } } }');
    expect(badLimit.body.errors[0].extensions.code).toBe('invalid_query');
  });

  it('refuses queries that are too deep or too costly', async () => {
    const ok = await gql('{ blogPosts { nodes { cover { id } } } }');
    expect(ok.body.errors).toBeUndefined();
    const deep = await gql('{ blogPosts { nodes { cover { thumbnails { name } } } } }');
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].message).toMatch(/depth/i);
    const viaFragment = await gql('fragment F on File { thumbnails { name } } { blogPosts { nodes { cover { ...F } } } }');
    expect(viaFragment.status).toBe(400);
    const costly = await gql('{ a: blogPosts(limit: 100) { nodes { id title slug body status publishedAt } } }');
    expect([costly.status, costly.body.errors[0].extensions.code]).toEqual([400, 'query_too_complex']);
    const costlyByVariable = await gql('query($n: Int) { blogPosts(limit: $n) { nodes { id title slug body status publishedAt } } }', { n: 100 });
    expect(costlyByVariable.body.errors[0].extensions.code).toBe('query_too_complex');
    const cheapByVariable = await gql('query($n: Int) { blogPosts(limit: $n) { nodes { id title slug body status publishedAt } } }', { n: 10 });
    expect(cheapByVariable.body.errors).toBeUndefined();
  });
});
