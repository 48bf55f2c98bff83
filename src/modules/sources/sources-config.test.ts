import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
let projectId: string;
beforeAll(async () => {
  t = await startTestApp({}, { workers: false });
  projectId = (await t.api('POST', '/v1/projects', { body: { name: 'Crawl configs' } })).body.id;
});
afterAll(() => t.close());

const create = (config: Record<string, unknown>) => t.api('POST', '/v1/sources', { body: { projectId, type: 'web', config } });
const countSources = async () => (await t.api('GET', `/v1/sources?projectId=${projectId}&limit=100`)).body.data.length;
const MASK = '••••••';

describe('web source crawl config', () => {
  it('fills every default', async () => {
    const res = await create({ urls: ['https://docs.example.com/'] });
    expect(res.status).toBe(201);
    expect(res.body.config).toEqual({
      urls: ['https://docs.example.com/'],
      crawlDepth: 1,
      scope: 'hostname',
      include: [],
      exclude: [],
      maxPages: 1000,
      respectRobots: true,
      headers: {},
    });
  });

  it('accepts every field and masks header values in every answer', async () => {
    const config = {
      urls: ['https://docs.example.com/guide/'],
      crawlDepth: 3,
      scope: 'prefix',
      include: ['/guide/**'],
      exclude: ['**/*.pdf', '/guide/private/**'],
      maxPages: 50,
      respectRobots: false,
      headers: { Authorization: 'Bearer top-secret', Cookie: 'session=abc' },
    };
    const res = await create(config);
    expect(res.status).toBe(201);
    expect(res.body.config).toEqual({ ...config, headers: { Authorization: MASK, Cookie: MASK } });
    expect(res.text).not.toContain('top-secret');
    const got = await t.api('GET', `/v1/sources/${res.body.id}`);
    expect(got.body.config.headers).toEqual({ Authorization: MASK, Cookie: MASK });
    const list = await t.api('GET', `/v1/sources?projectId=${projectId}&limit=100`);
    expect(list.text).not.toContain('top-secret');
    const stored = await t.quarry.services.sources.getInternal(res.body.id);
    expect(stored.config.headers).toEqual(config.headers);
  });

  it('PATCH keeps a stored secret sent back masked, replaces one sent anew, and drops one left out', async () => {
    const res = await create({ urls: ['https://a.example.com/'], headers: { Authorization: 'Bearer one', Cookie: 'c=1', 'X-Team': 't' } });
    const id = res.body.id;
    const patched = await t.api('PATCH', `/v1/sources/${id}`, {
      body: { config: { headers: { authorization: MASK, Cookie: 'c=2' }, crawlDepth: 2 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.config.headers).toEqual({ authorization: MASK, Cookie: MASK });
    expect((await t.quarry.services.sources.getInternal(id)).config.headers).toEqual({ authorization: 'Bearer one', Cookie: 'c=2' });
    // A PATCH of another field keeps the headers untouched.
    await t.api('PATCH', `/v1/sources/${id}`, { body: { config: { maxPages: 10 } } });
    expect((await t.quarry.services.sources.getInternal(id)).config).toMatchObject({ maxPages: 10, headers: { authorization: 'Bearer one', Cookie: 'c=2' } });
  });

  it.each([
    ['an unknown scope', { scope: 'site' }, 'config.scope'],
    ['include that is not a list', { include: '/docs/**' }, 'config.include'],
    ['a glob that is not a path', { include: ['docs/**'] }, 'config.include.0'],
    ['a negated glob', { exclude: ['!/docs/**'] }, 'config.exclude.0'],
    ['an empty glob', { exclude: [''] }, 'config.exclude.0'],
    ['maxPages of 0', { maxPages: 0 }, 'config.maxPages'],
    ['maxPages that is not an integer', { maxPages: 2.5 }, 'config.maxPages'],
    ['respectRobots as a string', { respectRobots: 'yes' }, 'config.respectRobots'],
    ['headers as a list', { headers: ['Cookie: a'] }, 'config.headers'],
    ['a header value that is not a string', { headers: { 'X-A': 1 } }, 'config.headers.X-A'],
    ['an invalid header name', { headers: { 'Bad Header': 'x' } }, 'config.headers.Bad Header'],
    ['a header the crawler owns', { headers: { Host: 'evil.example' } }, 'config.headers.Host'],
    ['the User-Agent header', { headers: { 'user-agent': 'x' } }, 'config.headers.user-agent'],
    ['a header value with a line break', { headers: { 'X-A': 'a\r\nInjected: 1' } }, 'config.headers.X-A'],
    ['a header given twice', { headers: { Cookie: 'a', cookie: 'b' } }, 'config.headers.cookie'],
    ['a masked value with nothing stored', { headers: { Authorization: MASK } }, 'config.headers.Authorization'],
  ])('rejects %s, naming the field and writing nothing', async (_label, extra, field) => {
    const before = await countSources();
    const res = await create({ urls: ['https://e.example.com/'], ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await countSources()).toBe(before);
  });

  it('rejects a bad PATCH without changing the stored config', async () => {
    const id = (await create({ urls: ['https://p.example.com/'], headers: { Cookie: 'keep' } })).body.id;
    const res = await t.api('PATCH', `/v1/sources/${id}`, { body: { config: { scope: 'planet' } } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe('config.scope');
    expect((await t.quarry.services.sources.getInternal(id)).config).toMatchObject({ scope: 'hostname', headers: { Cookie: 'keep' } });
  });
});
