import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';
import { makeUser, sessionCookie, startSession, TEST_SECRET, verifyHs256 } from './test-support.js';

const CORS_ORIGIN = 'https://ui.example.com';

describe.each(['database', 'jwt'] as const)('session cookies (%s strategy)', (strategy) => {
  let t: TestApp;
  let editor: Awaited<ReturnType<typeof makeUser>>;
  beforeAll(async () => {
    t = await startTestApp({
      rateLimit: { enabled: false },
      cors: { origin: [CORS_ORIGIN] },
      auth: { jwt: { secret: TEST_SECRET }, session: { strategy, maxAge: 3600, updateAge: 600, cookie: { sameSite: 'strict', domain: '127.0.0.1' } } },
    });
    editor = await makeUser(t, 'editor');
  });
  afterAll(() => t.close());

  it('turns a bearer JWT into a cookie with the configured options', async () => {
    const { cookie, res } = await startSession(t, editor.token);
    expect(res.body.user.id).toBe(editor.user.id);
    const line = res.headers.getSetCookie().find((c) => c.startsWith('session='))!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Strict/);
    expect(line).toMatch(/Path=\//);
    expect(line).toMatch(/Domain=127\.0\.0\.1/);
    expect(line).toMatch(/Max-Age=3600/);
    expect(line).not.toMatch(/Secure/); // env is test; production defaults to Secure
    expect(Date.parse(res.body.session.expiresAt) - Date.now()).toBeGreaterThan(3500_000);
    const value = decodeURIComponent(cookie.slice('session='.length));
    if (strategy === 'jwt') expect(verifyHs256(value)).toMatchObject({ sub: editor.user.id, typ: 'session' });
    else expect(value.split('.')).toHaveLength(1); // opaque
  });

  it('authenticates with the cookie on /api and /v1 routes', async () => {
    const { cookie } = await startSession(t, editor.token);
    const me = await t.api('GET', '/api/auth/me', { token: null, headers: { cookie } });
    expect([me.status, me.body.id]).toEqual([200, editor.user.id]);
    expect((await t.api('GET', '/v1/projects', { token: null, headers: { cookie } })).status).toBe(200);
    expect((await t.api('GET', '/api/admin/users', { token: null, headers: { cookie } })).status).toBe(403); // an editor
  });

  it('refuses a tampered cookie, and a session token used as a bearer token', async () => {
    const { cookie } = await startSession(t, editor.token);
    const tampered = cookie.slice(0, -3) + (cookie.endsWith('aaa') ? 'bbb' : 'aaa');
    expect((await t.api('GET', '/api/auth/me', { token: null, headers: { cookie: tampered } })).status).toBe(401);
    const value = decodeURIComponent(cookie.slice('session='.length));
    expect((await t.api('GET', '/api/auth/me', { token: value })).status).toBe(401);
    expect((await t.api('GET', '/api/auth/me', { token: null, headers: { cookie: `session=${editor.token}` } })).status).toBe(401);
  });

  it('only starts sessions from a user bearer token', async () => {
    const { cookie } = await startSession(t, editor.token);
    expect((await t.api('POST', '/api/auth/session')).status).toBe(403); // API key
    expect((await t.api('POST', '/api/auth/session', { token: null, headers: { cookie, origin: t.url } })).status).toBe(403);
    expect((await t.api('POST', '/api/auth/session', { token: null })).status).toBe(401);
  });

  it('checks the Origin of state-changing cookie requests (CSRF)', async () => {
    const { cookie } = await startSession(t, editor.token);
    const post = (headers: Record<string, string>) => t.api('POST', '/v1/projects', { token: null, headers: { cookie, ...headers }, body: { name: 'csrf' } });
    const none = await post({});
    expect([none.status, none.body.error.code]).toEqual([403, 'forbidden']);
    expect((await post({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ origin: t.url })).status).toBe(201);
    expect((await post({ origin: CORS_ORIGIN })).status).toBe(201);
    expect((await post({ referer: `${t.url}/admin/projects` })).status).toBe(201);
    // Bearer credentials are not sent by browsers on their own: no Origin needed.
    expect((await t.api('POST', '/v1/projects', { token: editor.token, body: { name: 'bearer' } })).status).toBe(201);
  });

  it('slides: a session older than updateAge is renewed with a fresh cookie', async () => {
    const { cookie } = await startSession(t, editor.token);
    const first = await t.api('GET', '/api/auth/me', { token: null, headers: { cookie } });
    expect(sessionCookie(first.headers)).toBeUndefined();
    if (strategy === 'database') {
      const old = new Date(Date.now() - 3000_000).toISOString();
      await t.quarry.ctx.db.updateTable('sessions').set({ renewed_at: old, expires_at: new Date(Date.now() + 600_000).toISOString() }).where('user_id', '=', editor.user.id).execute();
      const renewed = await t.api('GET', '/api/auth/me', { token: null, headers: { cookie } });
      expect(renewed.status).toBe(200);
      expect(sessionCookie(renewed.headers)).toBe(cookie); // same token, later expiry
      const rows = await t.quarry.ctx.db.selectFrom('sessions').selectAll().where('user_id', '=', editor.user.id).execute();
      expect(Math.max(...rows.map((r) => Date.parse(r.expires_at))) - Date.now()).toBeGreaterThan(3500_000);
      await t.quarry.ctx.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', editor.user.id).execute();
      expect((await t.api('GET', '/api/auth/me', { token: null, headers: { cookie } })).status).toBe(401);
    } else {
      // A session token issued 20 minutes ago (updateAge is 10): re-issued on use.
      const issued = Date.now() - 1200_000;
      const { token } = await t.quarry.ctx.jwt.sign({ sub: editor.user.id, typ: 'session', iat_ms: issued }, '3600s');
      const renewed = await t.api('GET', '/api/auth/me', { token: null, headers: { cookie: `session=${token}` } });
      expect(renewed.status).toBe(200);
      const fresh = sessionCookie(renewed.headers)!;
      expect(fresh).toBeDefined();
      expect(verifyHs256(decodeURIComponent(fresh.slice(8)))!.iat_ms as number).toBeGreaterThan(issued);
    }
  });

  it('signs out', async () => {
    const { cookie } = await startSession(t, editor.token);
    const out = await t.api('DELETE', '/api/auth/session', { token: null, headers: { cookie, origin: t.url } });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().join()).toMatch(/session=;.*Expires=Thu, 01 Jan 1970/);
    if (strategy === 'database') expect((await t.api('GET', '/api/auth/me', { token: null, headers: { cookie } })).status).toBe(401);
  });
});

describe('user administration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ rateLimit: { enabled: false }, auth: { jwt: { secret: TEST_SECRET } } });
  });
  afterAll(() => t.close());

  it('lists users for admins and admin keys only, paginated', async () => {
    const admin = await makeUser(t, 'admin');
    const viewer = await makeUser(t, 'viewer');
    const editor = await makeUser(t, 'editor');
    const page = await t.api('GET', '/api/admin/users?limit=2', { token: admin.token });
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ page: 1, limit: 2, hasMore: true });
    expect(page.body.data).toHaveLength(2);
    expect(JSON.stringify(page.body)).not.toMatch(/password|hash/i);
    const page2 = await t.api('GET', '/api/admin/users?limit=2&page=2');
    expect(page2.body.pagination.hasMore).toBe(false);
    expect(page2.body.data.map((u: { id: string }) => u.id)).toEqual([admin.user.id]);
    expect((await t.api('GET', '/api/admin/users', { token: null })).status).toBe(401);
    expect((await t.api('GET', '/api/admin/users', { token: viewer.token })).status).toBe(403);
    expect((await t.api('GET', '/api/admin/users', { token: editor.token })).status).toBe(403);
    expect((await t.api('GET', '/api/admin/users', { token: await t.key({ models: { projects: ['read'] } }) })).status).toBe(403);
    expect((await t.api('GET', '/api/admin/users?limit=0', { token: admin.token })).status).toBe(400);
  });

  it('changes users with the role rules', async () => {
    const superAdmin = await makeUser(t, 'super_admin');
    const admin = await makeUser(t, 'admin');
    const viewer = await makeUser(t, 'viewer');
    const patch = (token: string, id: string, body: unknown) => t.api('PATCH', `/api/admin/users/${id}`, { token, body });
    const ok = await patch(admin.token, viewer.user.id, { name: 'Renamed', role: 'editor', permissions: ['delete:projects'] });
    expect([ok.status, ok.body.name, ok.body.role, ok.body.permissions]).toEqual([200, 'Renamed', 'editor', ['delete:projects']]);
    expect((await patch(admin.token, viewer.user.id, { role: 'admin' })).status).toBe(403);
    expect((await patch(admin.token, superAdmin.user.id, { role: 'viewer' })).status).toBe(403);
    expect((await patch(superAdmin.token, viewer.user.id, { role: 'admin' })).body.role).toBe('admin');
    expect((await patch(admin.token, viewer.user.id, { permissions: ['fly:x'] })).status).toBe(400);
    expect((await patch(admin.token, viewer.user.id, {})).status).toBe(400);
    expect((await patch(admin.token, 'usr_missing', { name: 'x' })).status).toBe(404);
    const other = await makeUser(t, 'viewer');
    expect((await patch(other.token, viewer.user.id, { name: 'x' })).status).toBe(403);
    expect((await patch(admin.token, viewer.user.id, { name: 'x' })).status).toBe(403); // viewer is an admin now
  });

  it('lets only one of two super_admins demote the other at the same time', async () => {
    await t.quarry.ctx.db.deleteFrom('users').where('role', '=', 'super_admin').execute();
    const a = await makeUser(t, 'super_admin');
    const b = await makeUser(t, 'super_admin');
    const answers = await Promise.all([
      t.api('PATCH', `/api/admin/users/${b.user.id}`, { token: a.token, body: { role: 'admin' } }),
      t.api('PATCH', `/api/admin/users/${a.user.id}`, { token: b.token, body: { role: 'admin' } }),
    ]);
    // The loser is refused either by the guard (already demoted: 403) or by the locked count (409).
    const [won, lost] = answers.map((r) => r.status).sort();
    expect(won).toBe(200);
    expect([403, 409]).toContain(lost);
    const left = await t.quarry.ctx.db.selectFrom('users').select('id').where('role', '=', 'super_admin').execute();
    expect(left).toHaveLength(1);
  });

  it('never demotes or deletes the last super_admin, and nobody deletes themselves', async () => {
    await t.quarry.ctx.db.deleteFrom('users').where('role', '=', 'super_admin').execute();
    const only = await makeUser(t, 'super_admin');
    const demote = await t.api('PATCH', `/api/admin/users/${only.user.id}`, { token: only.token, body: { role: 'admin' } });
    expect([demote.status, demote.body.error.code]).toEqual([409, 'last_super_admin']);
    const self = await t.api('DELETE', `/api/admin/users/${only.user.id}`, { token: only.token });
    expect([self.status, self.body.error.code]).toEqual([409, 'cannot_delete_self']);
    expect((await t.api('DELETE', `/api/admin/users/${only.user.id}`)).status).toBe(403); // admin key is no super_admin

    const second = await makeUser(t, 'super_admin');
    expect((await t.api('PATCH', `/api/admin/users/${only.user.id}`, { token: second.token, body: { role: 'admin' } })).status).toBe(200);
    const victim = await makeUser(t, 'viewer');
    expect((await t.api('DELETE', `/api/admin/users/${victim.user.id}`)).status).toBe(204);
    expect((await t.api('GET', '/api/auth/me', { token: victim.token })).status).toBe(401);
    expect((await t.api('DELETE', `/api/admin/users/${victim.user.id}`)).status).toBe(404);
  });
});
