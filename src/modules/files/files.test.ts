import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
let png: Buffer;
let viewerToken: string;
const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\0\0'), Buffer.alloc(2000, 1)]);

beforeAll(async () => {
  t = await startTestApp({ uploads: { maxFileBytes: 200_000 } });
  png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366aa' } }).png().toBuffer();
  const viewer = await t.quarry.services.users.create({ email: 'v@example.test', name: 'V', password: 'correct horse 1', role: 'viewer' });
  viewerToken = (await t.quarry.services.users.issueToken(viewer)).token;
});
afterAll(() => t.close());

type Part = [field: string, value: string | { name: string; data: Buffer }];
async function upload(app: TestApp, path: string, parts: Part[], token: string | null = app.adminKey) {
  const form = new FormData();
  for (const [field, value] of parts)
    if (typeof value === 'string') form.append(field, value);
    else form.append(field, new Blob([new Uint8Array(value.data)]), value.name);
  const res = await fetch(app.url + path, { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: await res.json() };
}
const fileCount = async () => (await t.api('GET', '/api/files?limit=100')).body.data.length;

describe('uploads', () => {
  it('stores an image with its size and thumbnails and serves it with the sniffed type', async () => {
    const res = await upload(t, '/api/upload', [['file', { name: 'photo.png', data: png }], ['alt', 'A blue square'], ['folder', 'blog//2026/']]);
    expect(res.status).toBe(201);
    const rec = res.body.data;
    expect(rec).toMatchObject({ filename: 'photo.png', mimeType: 'image/png', size: png.length, alt: 'A blue square', folder: 'blog/2026', width: 800, height: 600 });
    expect(rec.thumbnails.small).toMatchObject({ width: 320, height: 240 });
    const served = await fetch(t.url + rec.url);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    const thumb = await fetch(t.url + rec.thumbnails.small.url);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBe(320);

    const listed = await t.api('GET', '/api/files?folder=blog/2026');
    expect(listed.body.data.map((f: { id: string }) => f.id)).toEqual([rec.id]);
    expect((await t.api('DELETE', `/api/files/${rec.id}`)).status).toBe(204);
    expect((await fetch(t.url + rec.url)).status).toBe(404);
  });

  it('recognises markdown and csv text by heuristics', async () => {
    const md = await upload(t, '/api/upload', [['file', { name: 'notes.md', data: Buffer.from('# Title\n\nSome *text*.\n') }]]);
    expect([md.status, md.body.data.mimeType]).toEqual([201, 'text/markdown']);
    const csv = await upload(t, '/api/upload', [['file', { name: 'data.csv', data: Buffer.from('a,b\n1,2\n') }]]);
    expect(csv.body.data.mimeType).toBe('text/csv');
  });

  it.each([
    ['an .exe renamed .png', [['file', { name: 'cat.png', data: exe }]] as Part[], 415, 'file_type_not_allowed'],
    ['binary garbage', [['file', { name: 'x.txt', data: Buffer.from([0, 1, 2, 255, 0, 7]) }]] as Part[], 415, 'file_type_not_allowed'],
    ['an oversized file', [['file', { name: 'big.txt', data: Buffer.alloc(250_000, 'a') }]] as Part[], 413, 'payload_too_large'],
    ['.. in folder', [['folder', '../etc'], ['file', { name: 'a.txt', data: Buffer.from('hi') }]] as Part[], 400, 'validation_failed'],
    ['an absolute folder', [['folder', '/etc'], ['file', { name: 'a.txt', data: Buffer.from('hi') }]] as Part[], 400, 'validation_failed'],
    ['a control character in folder', [['folder', 'a\u0007b'], ['file', { name: 'a.txt', data: Buffer.from('hi') }]] as Part[], 400, 'validation_failed'],
    ['a hidden .. segment', [['folder', 'a/../../b'], ['file', { name: 'a.txt', data: Buffer.from('hi') }]] as Part[], 400, 'validation_failed'],
    ['no file', [['alt', 'x']] as Part[], 400, 'validation_failed'],
    ['an unknown field', [['colour', 'red'], ['file', { name: 'a.txt', data: Buffer.from('hi') }]] as Part[], 400, 'validation_failed'],
  ])('refuses %s and stores nothing', async (_label, parts, status, code) => {
    const before = await fileCount();
    const res = await upload(t, '/api/upload', parts);
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect(await fileCount()).toBe(before);
  });

  it('answers malformed multipart with 400 and non-multipart with 415', async () => {
    const broken = await t.api('POST', '/api/upload', { raw: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello', headers: { 'content-type': 'multipart/form-data; boundary=xyz' } });
    expect([broken.status, broken.body.error.code]).toEqual([400, 'invalid_multipart']);
    const json = await t.api('POST', '/api/upload', { body: { file: 'x' } });
    expect([json.status, json.body.error.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('stores several files all or none', async () => {
    const before = await fileCount();
    const bad = await upload(t, '/api/upload/multiple', [['files[]', { name: 'a.txt', data: Buffer.from('one') }], ['files[]', { name: 'b.png', data: exe }]]);
    expect([bad.status, bad.body.error.code]).toEqual([415, 'file_type_not_allowed']);
    expect(await fileCount()).toBe(before);
    const ok = await upload(t, '/api/upload/multiple', [['files[]', { name: 'a.txt', data: Buffer.from('one') }], ['files[]', { name: 'b.png', data: png }]]);
    expect(ok.status).toBe(201);
    expect(ok.body.data.map((f: { mimeType: string }) => f.mimeType)).toEqual(['text/plain', 'image/png']);
    expect(await fileCount()).toBe(before + 2);
  });

  it('applies the files permissions to roles and keys', async () => {
    const part: Part[] = [['file', { name: 'a.txt', data: Buffer.from('hi') }]];
    expect((await upload(t, '/api/upload', part, null)).status).toBe(401);
    expect((await upload(t, '/api/upload', part, viewerToken)).status).toBe(403);
    expect((await upload(t, '/api/upload', part, await t.key({ models: { posts: ['create'] } }))).status).toBe(403);
    const ok = await upload(t, '/api/upload', part, await t.key({ models: { files: ['create'] } }));
    expect(ok.status).toBe(201);
    expect((await t.api('DELETE', `/api/files/${ok.body.data.id}`, { token: viewerToken })).status).toBe(403);
    expect((await fetch(t.url + ok.body.data.url)).status).toBe(200);
  });
});

describe('S3 storage', () => {
  it('stores and serves files through an S3-compatible service', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-s3-'));
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'quarry', configs: [] }] });
    const { port } = (await server.run()) as { port: number };
    const s3 = { bucket: 'quarry', region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
    const app = await startTestApp({ storage: { driver: 's3', s3 } });
    try {
      const res = await upload(app, '/api/upload', [['file', { name: 'p.png', data: png }], ['folder', 'covers']]);
      expect(res.status).toBe(201);
      const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: 'quarry', Prefix: 'covers/' }));
      client.destroy();
      expect(listed.Contents?.map((o) => o.Key).sort()).toEqual([`covers/${res.body.data.id}-medium.webp`, `covers/${res.body.data.id}-small.webp`, `covers/${res.body.data.id}.png`]);
      const served = await fetch(app.url + res.body.data.url);
      expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    } finally {
      await app.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
