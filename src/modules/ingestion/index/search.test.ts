import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectUnderTest, startTestApp, type TestApp } from '../../../../test/helpers/app.js';
import type { ChunkDraft, ParsedPage } from '../contracts.js';
import type { IndexService, UpsertDocumentInput } from './service.js';

let t: TestApp;
let index: IndexService;
let projectId: string;
let docsSource: string;
let blogSource: string;

const page = (url: string, title: string, markdown: string): ParsedPage => ({
  url,
  canonicalUrl: null,
  title,
  description: null,
  language: 'en',
  markdown,
  links: [],
});
const chunk = (position: number, text: string, headingPath: string[] = []): ChunkDraft => ({ position, text, headingPath, tokens: text.split(' ').length });

function input(sourceId: string, url: string, title: string, texts: string[], runId = 'run_1'): UpsertDocumentInput {
  return { sourceId, projectId, runId, url, page: page(url, title, texts.join('\n\n')), chunks: texts.map((x, i) => chunk(i, x, [title])) };
}

const search = (body: Record<string, unknown>, id = projectId) => t.api('POST', `/v1/projects/${id}/search`, { body });
const createSource = async (name: string) =>
  (await t.api('POST', '/v1/sources', { body: { projectId, type: 'web', name, config: { urls: [`https://${name}.example.com/`] } } })).body.id as string;

beforeAll(async () => {
  t = await startTestApp();
  index = t.quarry.services.index;
  projectId = (await t.api('POST', '/v1/projects', { body: { name: 'Search' } })).body.id;
  docsSource = await createSource('docs');
  blogSource = await createSource('blog');
  await index.upsertDocuments([
    input(docsSource, 'https://docs.example.com/install', 'Installing Quarry', [
      'Install the package with npm and start the server with quarry serve.',
      'Configuration lives in quarry.config.json or environment variables.',
    ]),
    input(docsSource, 'https://docs.example.com/backup', 'Backups', ['Copy the SQLite database file while the service is stopped, or use the online backup command.']),
    input(blogSource, 'https://blog.example.com/kayak', 'Our kayaking trip', ['We paddled kayaks down the glacier river and camped beside waterfalls.']),
  ]);
});
afterAll(() => t.close());

describe('search', () => {
  it.each(['hybrid', 'keyword', 'semantic'])('finds known content in %s mode', async (mode) => {
    const res = await search({ query: 'how do I back up the sqlite database?', mode });
    expect(res.status).toBe(200);
    const used = dialectUnderTest === 'postgres' ? 'keyword' : mode; // PostgreSQL here runs without pgvector
    expect(res.body.mode).toBe(used);
    expect(res.headers.get('x-search-mode')).toBe(used);
    expect(res.body.data[0]).toMatchObject({ url: 'https://docs.example.com/backup', title: 'Backups', sourceId: docsSource, headingPath: ['Backups'] });
    expect(res.body.data[0].chunkId).toMatch(/^chk_/);
    expect(res.body.data[0].documentId).toMatch(/^doc_/);
    expect(typeof res.body.data[0].score).toBe('number');
  });

  it('matches word forms (stemming) and never treats user text as query syntax', async () => {
    const stem = await search({ query: 'paddling kayak', mode: 'keyword' });
    expect(stem.body.data.map((h: { url: string }) => h.url)).toEqual(['https://blog.example.com/kayak']);
    for (const query of ['"unbalanced', 'NEAR(a b) OR AND *', 'col:umn ^start -not', "'); drop table chunks; --", '(((', '🙂']) {
      const res = await search({ query, mode: 'keyword' });
      expect(res.status, query).toBe(200);
      expect(Array.isArray(res.body.data)).toBe(true);
    }
  });

  it('filters by source and honours the limit', async () => {
    const all = await search({ query: 'quarry server database kayaks', mode: 'keyword', limit: 50 });
    expect(new Set(all.body.data.map((h: { sourceId: string }) => h.sourceId))).toEqual(new Set([docsSource, blogSource]));
    const blogOnly = await search({ query: 'quarry server database kayaks', mode: 'keyword', sourceIds: [blogSource] });
    expect(blogOnly.body.data.map((h: { sourceId: string }) => h.sourceId)).toEqual([blogSource]);
    const one = await search({ query: 'quarry server database kayaks', limit: 1 });
    expect(one.body.data).toHaveLength(1);
  });

  it('never mixes projects, even when another project holds the better matches', async () => {
    const other = (await t.api('POST', '/v1/projects', { body: { name: 'Other' } })).body.id as string;
    const otherSource = (await t.api('POST', '/v1/sources', { body: { projectId: other, type: 'web', config: { urls: ['https://o.example.com/'] } } })).body.id;
    const many = Array.from({ length: 12 }, (_, i) => input(otherSource, `https://o.example.com/${i}`, 'Backup', [`backup sqlite database backup ${i}`]));
    await index.upsertDocuments(many.map((d) => ({ ...d, projectId: other })));
    for (const mode of ['keyword', 'hybrid', 'semantic']) {
      const mine = await search({ query: 'sqlite database backup', mode, limit: 3 });
      expect(mine.body.data.length, mode).toBeGreaterThan(0);
      expect(mine.body.data.every((h: { sourceId: string }) => h.sourceId !== otherSource), mode).toBe(true);
      const theirs = await search({ query: 'sqlite database backup', mode, limit: 50 }, other);
      expect(new Set(theirs.body.data.map((h: { sourceId: string }) => h.sourceId)), mode).toEqual(new Set([otherSource]));
    }
    const mine = await search({ query: 'sqlite database backup', mode: 'keyword', limit: 3 });
    expect(mine.body.data[0].url).toBe('https://docs.example.com/backup');
  });

  it.each([
    ['limit 0', { query: 'x', limit: 0 }, 'limit'],
    ['limit 51', { query: 'x', limit: 51 }, 'limit'],
    ['missing query', { limit: 5 }, 'query'],
    ['empty query', { query: '' }, 'query'],
    ['query over 1000 characters', { query: 'x'.repeat(1001) }, 'query'],
    ['unknown mode', { query: 'x', mode: 'fuzzy' }, 'mode'],
  ])('rejects %s with a 400 naming the field', async (_label, body, field) => {
    const res = await search(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('answers 404 for an unknown project and 403 without projects:read', async () => {
    const res = await search({ query: 'backup' }, 'prj_nope');
    expect([res.status, res.body.error.code]).toEqual([404, 'project_not_found']);
    const key = await t.key({ models: { sources: ['read'] } });
    const denied = await t.api('POST', `/v1/projects/${projectId}/search`, { body: { query: 'backup' }, token: key });
    expect(denied.status).toBe(403);
  });

  it('hides a deleted source at once and purges its chunks', async () => {
    const temp = await createSource('temp');
    await index.upsertDocuments([input(temp, 'https://temp.example.com/zebra', 'Zebras', ['Zebra stripes confuse biting flies.'])]);
    expect((await search({ query: 'zebra stripes', mode: 'keyword' })).body.data).toHaveLength(1);
    expect((await t.api('DELETE', `/v1/sources/${temp}`)).status).toBe(204);
    for (const mode of ['keyword', 'semantic', 'hybrid'])
      expect((await search({ query: 'zebra stripes', mode })).body.data.map((h: { sourceId: string }) => h.sourceId)).not.toContain(temp);
    await t.quarry.ctx.background.drain();
    await index.purgeDeleted();
    expect(await index.sourceTotals(temp)).toEqual({ documents: 0, chunks: 0, tokens: 0 });
  });
});

describe('documents', () => {
  it('lists a source’s documents and gets one with its markdown', async () => {
    const list = await t.api('GET', `/v1/sources/${docsSource}/documents?limit=1`);
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ page: 1, limit: 1, hasMore: true });
    expect(list.body.data[0]).toMatchObject({ url: 'https://docs.example.com/backup', title: 'Backups', chunkCount: 1 });
    expect(list.body.data[0].hash).toMatch(/^[0-9a-f]{64}$/);
    const doc = await t.api('GET', `/v1/documents/${list.body.data[0].id}`);
    expect(doc.status).toBe(200);
    expect(doc.body).toMatchObject({ id: list.body.data[0].id, sourceId: docsSource, projectId, markdown: expect.stringContaining('online backup command') });
    expect((await t.api('GET', '/v1/documents/doc_missing')).body.error.code).toBe('document_not_found');
    expect((await t.api('GET', '/v1/sources/src_missing/documents')).body.error.code).toBe('source_not_found');
    const project = await t.api('GET', `/v1/projects/${projectId}`);
    expect(project.body.counts).toMatchObject({ documents: 3, chunks: 4 });
  });

  it('skips unchanged pages and replaces the chunks of changed ones', async () => {
    const src = await createSource('changes');
    const first = await index.upsertDocument(input(src, 'https://c.example.com/a', 'A', ['alpha one', 'alpha two']));
    expect(first).toMatchObject({ changed: true, created: true });
    const same = await index.upsertDocument(input(src, 'https://c.example.com/a', 'A', ['alpha one', 'alpha two'], 'run_2'));
    expect(same).toEqual({ documentId: first.documentId, changed: false, created: false });
    const changed = await index.upsertDocument(input(src, 'https://c.example.com/a', 'A', ['omega only'], 'run_3'));
    expect(changed).toEqual({ documentId: first.documentId, changed: true, created: false });
    expect(await index.sourceTotals(src)).toMatchObject({ documents: 1, chunks: 1 });
    expect((await search({ query: 'alpha', mode: 'keyword', sourceIds: [src] })).body.data).toEqual([]);
    expect((await index.previousFetches(src)).get('https://c.example.com/a')?.hash).toBe(index.hashOf('omega only'));
  });

  it('removes pages gone from the site, but not when the crawl saw under half', async () => {
    const src = await createSource('removal');
    const urls = ['a', 'b', 'c', 'd'].map((p) => `https://r.example.com/${p}`);
    await index.upsertDocuments(urls.map((u) => input(src, u, u, [`page ${u}`], 'run_a')));
    // run_b sees one of four pages: that looks like a failing site, so nothing goes.
    await index.markSeen(src, [{ url: urls[0]!, etag: '"v2"', lastModified: 'Sun, 22 Nov 2026 01:00:00 GMT' }], 'run_b');
    expect(await index.removeMissing(src, 'run_b')).toEqual({ indexed: 4, seen: 1, removed: 0, skipped: true });
    expect((await index.previousFetches(src)).get(urls[0]!)).toMatchObject({ etag: '"v2"', lastModified: 'Sun, 22 Nov 2026 01:00:00 GMT' });
    // run_c sees three of four: the fourth is gone from the site.
    await index.markSeen(src, urls.slice(0, 2), 'run_c');
    await index.upsertDocument(input(src, urls[2]!, urls[2]!, [`page ${urls[2]}`], 'run_c'));
    expect(await index.removeMissing(src, 'run_c')).toEqual({ indexed: 4, seen: 3, removed: 1, skipped: false });
    expect([...(await index.previousFetches(src)).keys()].sort()).toEqual(urls.slice(0, 3));
  });

  it.skipIf(dialectUnderTest === 'postgres')('leaves the most common terms out once a query would score more chunks than maxPostings', async () => {
    const budgeted = await startTestApp({ search: { maxPostings: 3 } });
    const found = async (app: TestApp) => {
      const project = (await app.api('POST', '/v1/projects', { body: { name: 'Budget' } })).body.id as string;
      const source = (await app.api('POST', '/v1/sources', { body: { projectId: project, type: 'web', config: { urls: ['https://b.example.com/'] } } })).body.id as string;
      const doc = (path: string, text: string): UpsertDocumentInput => ({ ...input(source, `https://b.example.com/${path}`, path, [text]), projectId: project });
      await app.quarry.services.index.upsertDocuments([...['one', 'two', 'three', 'four'].map((p) => doc(p, `granite and ${p}`)), doc('obsidian', 'obsidian only')]);
      const res = await app.api('POST', `/v1/projects/${project}/search`, { body: { query: 'obsidian granite', mode: 'keyword' } });
      return (res.body.data as Array<{ url: string }>).map((h) => h.url.slice('https://b.example.com/'.length)).sort();
    };
    try {
      // "granite" is in 4 chunks, "obsidian" in 1: with a budget of 3 only the rarer term is scored.
      expect(await found(budgeted)).toEqual(['obsidian']);
      // The default budget is far above this index: every term counts.
      expect(await found(t)).toEqual(['four', 'obsidian', 'one', 'three', 'two']);
    } finally {
      await budgeted.close();
    }
  });
});
