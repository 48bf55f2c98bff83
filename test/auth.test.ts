import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.js';

const SECRET = 'test-secret-that-is-long-enough-for-hs256!!';
let t: TestApp;
let projectId: string;

async function userToken(role: string, permissions: string[] = []) {
  const users = t.quarry.services.users;
  const user = await users.create({ email: `${role}-${Math.random().toString(36).slice(2)}@example.com`, name: role, password: 'correct horse battery', role, permissions });
  return (await users.issueToken(user)).token;
}

beforeAll(async () => {
  t = await startTestApp();
  projectId = (await t.api('POST', '/v1/projects', { body: { name: 'Auth' } })).body.id;
});
afterAll(() => t.close());

describe('authentication on /v1', () => {
  it.each([
    ['no credential', null, {}],
    ['a Basic header', null, { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an empty bearer', null, { authorization: 'Bearer ' }],
    ['an unknown API key', 'qk_unknownunknownunknownunknownunknownunknown', {}],
    ['a random string', 'not-a-token', {}],
    ['a malformed JWT', 'aaa.bbb.ccc', {}],
  ])('answers 401 with WWW-Authenticate for %s', async (_label, token, headers) => {
    const res = await t.api('GET', '/v1/projects', { token, headers });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('refuses revoked keys at once', async () => {
    const created = await t.quarry.services.apiKeys.create({ name: 'short-lived', permissions: { admin: true } });
    expect((await t.api('GET', '/v1/projects', { token: created.key })).status).toBe(200);
    await t.quarry.services.apiKeys.revoke(created.id);
    expect((await t.api('GET', '/v1/projects', { token: created.key })).status).toBe(401);
  });

  it('stores API keys only as hashes', async () => {
    const created = await t.quarry.services.apiKeys.create({ name: 'hashed', permissions: {} });
    expect(created.key).toMatch(/^qk_[A-Za-z0-9_-]{43}$/);
    const row = await t.quarry.ctx.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.key.slice(11));
    expect(row.prefix).toBe(created.key.slice(0, 11));
  });

  it('applies a key permission document: 200 where allowed, 403 where not', async () => {
    const reader = await t.key({ models: { projects: ['read'] } });
    expect((await t.api('GET', '/v1/projects', { token: reader })).status).toBe(200);
    const denied = await t.api('POST', '/v1/projects', { token: reader, body: { name: 'x' } });
    expect([denied.status, denied.body.error.code]).toEqual([403, 'forbidden']);
    expect((await t.api('GET', `/v1/sources?projectId=${projectId}`, { token: reader })).status).toBe(403);

    const trigger = await t.key({ models: { ingestion: ['create'] } });
    const src = (await t.api('POST', '/v1/sources', { body: { projectId, type: 'web', config: { urls: ['https://e.com'] } } })).body.id;
    const run = await t.api('POST', '/v1/trigger/ingestion', { token: trigger, body: { sourceId: src } });
    expect(run.status).toBe(201);
    expect((await t.api('GET', `/v1/runs/${run.body.runId}`, { token: trigger })).status).toBe(403);
  });

  it('checks permissions before validating the body, so 403 leaks nothing', async () => {
    const reader = await t.key({ models: { projects: ['read'] } });
    const res = await t.api('POST', '/v1/projects', { token: reader, body: { bogus: true } });
    expect(res.status).toBe(403);
  });

  it('maps user roles: viewer reads, editor writes, admin deletes', async () => {
    const viewer = await userToken('viewer');
    const editor = await userToken('editor');
    const admin = await userToken('admin');
    expect((await t.api('GET', '/v1/projects', { token: viewer })).status).toBe(200);
    expect((await t.api('POST', '/v1/projects', { token: viewer, body: { name: 'v' } })).status).toBe(403);
    const made = await t.api('POST', '/v1/projects', { token: editor, body: { name: 'by editor' } });
    expect(made.status).toBe(201);
    expect((await t.api('PATCH', `/v1/projects/${made.body.id}`, { token: editor, body: { name: 'renamed' } })).status).toBe(200);
    expect((await t.api('DELETE', `/v1/projects/${made.body.id}`, { token: editor })).status).toBe(403);
    expect((await t.api('DELETE', `/v1/projects/${made.body.id}`, { token: admin })).status).toBe(204);
    const granted = await userToken('viewer', ['create:projects']);
    expect((await t.api('POST', '/v1/projects', { token: granted, body: { name: 'granted' } })).status).toBe(201);
  });

  it('issues HS256 tokens an independent implementation can verify', async () => {
    const token = await userToken('viewer');
    const [header, payload, signature] = token.split('.');
    const expected = createHmac('sha256', SECRET).update(`${header}.${payload}`).digest('base64url');
    expect(signature).toBe(expected);
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(7 * 24 * 3600);
  });

  it('refuses expired, foreign-secret, alg:none and unknown-user tokens', async () => {
    const user = await t.quarry.services.users.create({ email: 'jwt@example.com', name: 'J', password: 'long enough pw', role: 'admin' });
    const key = new TextEncoder().encode(SECRET);
    const expired = await new SignJWT({ role: 'admin' }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setIssuedAt(1_700_000_000).setExpirationTime(1_700_000_100).sign(key);
    const foreign = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setExpirationTime('1h').sign(new TextEncoder().encode('another-secret-another-secret-another!!'));
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: user.id, exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url')}.`;
    const ghost = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('usr_ghost').setIssuedAt().setExpirationTime('1h').sign(key);
    const hs512 = await new SignJWT({}).setProtectedHeader({ alg: 'HS512' }).setSubject(user.id).setIssuedAt().setExpirationTime('1h').sign(key);
    for (const token of [expired, foreign, none, ghost, hs512]) {
      const res = await t.api('GET', '/v1/projects', { token });
      expect(res.status).toBe(401);
    }
    const good = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setIssuedAt().setExpirationTime('1h').sign(key);
    expect((await t.api('GET', '/v1/projects', { token: good })).status).toBe(200);
  });

  it('leaves health, readiness and the OpenAPI document open', async () => {
    expect((await t.api('GET', '/health', { token: null })).body).toEqual({ status: 'ok' });
    expect((await t.api('GET', '/ready', { token: null })).body).toEqual({ status: 'ready' });
    const doc = await t.api('GET', '/v1/openapi.json', { token: null });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    for (const path of ['/v1/projects', '/v1/projects/{id}', '/v1/sources', '/v1/sources/{id}', '/v1/trigger/ingestion', '/v1/runs/{runId}'])
      expect(Object.keys(doc.body.paths), path).toContain(path);
    expect(doc.body.paths['/v1/projects'].post.requestBody).toBeDefined();
    expect(doc.body.paths['/v1/projects'].post.responses['201']).toBeDefined();
    expect(doc.text).not.toContain(SECRET);
    const page = await fetch(`${t.url}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });
});
