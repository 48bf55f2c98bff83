import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';
import { email, forgeJwt, makeUser, PASSWORD, TEST_SECRET, verifyHs256 } from './test-support.js';

const lenient = { rateLimit: { enabled: false }, auth: { jwt: { secret: TEST_SECRET }, bruteForce: { freeRetries: 1000, failuresBeforeBrute: 1000 } } };

describe('bootstrap', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(lenient);
  });
  afterAll(() => t.close());

  it('lets exactly one of two concurrent first invitations create the super_admin', async () => {
    const invite = (who: string) => t.api('POST', '/api/auth/invite', { token: null, body: { email: email(who), password: PASSWORD, name: who, role: 'viewer' } });
    const answers = await Promise.all([invite('first'), invite('second')]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 401]);
    const winner = answers.find((a) => a.status === 201)!;
    expect(winner.body.user.role).toBe('super_admin');
    expect(winner.body.user).not.toHaveProperty('password');
    expect(verifyHs256(winner.body.token)).toMatchObject({ sub: winner.body.user.id });
    const rows = await t.quarry.ctx.db.selectFrom('users').select('role').execute();
    expect(rows).toEqual([{ role: 'super_admin' }]);
    const late = await t.api('POST', '/api/auth/invite', { token: null, body: { email: email('late'), password: PASSWORD, name: 'late' } });
    expect([late.status, late.body.error.code]).toEqual([401, 'unauthorized']);
  });
});

describe('invite, sign-in and tokens', () => {
  let t: TestApp;
  let superAdmin: Awaited<ReturnType<typeof makeUser>>;
  let admin: Awaited<ReturnType<typeof makeUser>>;
  beforeAll(async () => {
    t = await startTestApp(lenient);
    superAdmin = await makeUser(t, 'super_admin');
    admin = await makeUser(t, 'admin');
  });
  afterAll(() => t.close());

  const userCount = async () => Number((await t.quarry.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('invites with role rules: admins up to editor, super_admins anything, others nothing', async () => {
    const body = (role: string) => ({ email: email(role), password: PASSWORD, name: `new ${role}`, role });
    const editor = await t.api('POST', '/api/auth/invite', { token: admin.token, body: body('editor') });
    expect(editor.status).toBe(201);
    expect(editor.body).toMatchObject({ user: { role: 'editor', permissions: [] }, expiresAt: expect.any(String) });
    expect(verifyHs256(editor.body.token)).toMatchObject({ sub: editor.body.user.id, role: 'editor' });
    const byAdmin = await t.api('POST', '/api/auth/invite', { token: admin.token, body: body('admin') });
    expect([byAdmin.status, byAdmin.body.error.code]).toEqual([403, 'forbidden']);
    expect((await t.api('POST', '/api/auth/invite', { token: superAdmin.token, body: body('admin') })).status).toBe(201);
    expect((await t.api('POST', '/api/auth/invite', { token: superAdmin.token, body: body('super_admin') })).status).toBe(201);
    const viewer = await makeUser(t, 'viewer');
    expect((await t.api('POST', '/api/auth/invite', { token: viewer.token, body: body('viewer') })).status).toBe(403);
    expect((await t.api('POST', '/api/auth/invite', { token: null, body: body('viewer') })).status).toBe(401);
    expect((await t.api('POST', '/api/auth/invite', { body: body('viewer') })).status).toBe(201); // admin API key
  });

  it('stores e-mails lower-cased and refuses duplicates with 409', async () => {
    const address = email('Mixed').replace('mixed', 'MiXeD');
    const made = await t.api('POST', '/api/auth/invite', { token: admin.token, body: { email: address, password: PASSWORD, name: 'x' } });
    expect(made.body.user.email).toBe(address.toLowerCase());
    const again = await t.api('POST', '/api/auth/invite', { token: admin.token, body: { email: address.toUpperCase(), password: PASSWORD, name: 'y' } });
    expect([again.status, again.body.error.code]).toEqual([409, 'email_taken']);
  });

  it.each([
    ['malformed e-mail', { email: 'not-an-email', password: PASSWORD, name: 'x' }, 'email'],
    ['short password', { email: email('short'), password: 'short', name: 'x' }, 'password'],
    ['unknown role', { email: email('role'), password: PASSWORD, name: 'x', role: 'owner' }, 'role'],
    ['bad permission', { email: email('perm'), password: PASSWORD, name: 'x', permissions: ['fly:projects'] }, 'permissions.0'],
    ['missing name', { email: email('name'), password: PASSWORD }, 'name'],
  ])('answers 400 naming the field for a %s, and writes nothing', async (_label, body, field) => {
    const before = await userCount();
    const res = await t.api('POST', '/api/auth/invite', { token: superAdmin.token, body });
    expect([res.status, res.body.error.code]).toEqual([400, 'validation_failed']);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await userCount()).toBe(before);
  });

  it('signs in with the right password and hands out an HS256 token', async () => {
    const res = await t.api('POST', '/api/auth/signin', { token: null, body: { email: admin.user.email.toUpperCase(), password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: admin.user.id, role: 'admin' });
    expect(JSON.stringify(res.body)).not.toMatch(/argon|password/i);
    const claims = verifyHs256(res.body.token)!;
    expect(claims).toMatchObject({ sub: admin.user.id });
    expect(new Date((claims.exp as number) * 1000).toISOString()).toBe(res.body.expiresAt);
    expect(verifyHs256(res.body.token, 'another secret')).toBeNull();
    expect((await t.api('GET', '/api/auth/me', { token: res.body.token })).body.id).toBe(admin.user.id);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const wrong = await t.api('POST', '/api/auth/signin', { token: null, body: { email: admin.user.email, password: 'not the password' } });
    const unknown = await t.api('POST', '/api/auth/signin', { token: null, body: { email: email('nobody'), password: 'not the password' } });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe('invalid_credentials');
  });

  it('answers 400 for a malformed e-mail or missing password at sign-in', async () => {
    expect((await t.api('POST', '/api/auth/signin', { token: null, body: { email: 'nope', password: 'x' } })).body.error.details[0].field).toBe('email');
    expect((await t.api('POST', '/api/auth/signin', { token: null, body: { email: email('a') } })).body.error.details[0].field).toBe('password');
  });

  it.each([
    ['an expired token', () => forgeJwt({ sub: admin.user.id, iat: 1_600_000_000, exp: 1_600_000_100 })],
    ['a token signed with another secret', () => forgeJwt({ sub: admin.user.id, exp: Math.floor(Date.now() / 1000) + 600 }, 'some-other-secret-that-is-long-enough!!')],
    ['an alg:none token', () => forgeJwt({ sub: admin.user.id, exp: Math.floor(Date.now() / 1000) + 600 }, '', { alg: 'none', typ: 'JWT' })],
    ['a token for a deleted user', () => forgeJwt({ sub: 'usr_gone', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 600 })],
  ])('refuses %s with 401', async (_label, make) => {
    const res = await t.api('GET', '/api/auth/me', { token: make() });
    expect([res.status, res.body.error.code]).toEqual([401, 'unauthorized']);
  });

  it('accepts a well-formed token made by another implementation (the control for the refusals)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const res = await t.api('GET', '/api/auth/me', { token: forgeJwt({ sub: admin.user.id, iat: now, exp: now + 600 }) });
    expect([res.status, res.body.id]).toEqual([200, admin.user.id]);
  });

  it('answers /me: 401 without a credential, 403 for an API key', async () => {
    expect((await t.api('GET', '/api/auth/me', { token: null })).status).toBe(401);
    const res = await t.api('GET', '/api/auth/me');
    expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
  });
});

describe('other JWT algorithms', () => {
  it('signs with HS512 when configured, verifiable with node:crypto', async () => {
    const { createHmac } = await import('node:crypto');
    const t = await startTestApp({ ...lenient, auth: { ...lenient.auth, jwt: { secret: TEST_SECRET, algorithm: 'HS512', expiresIn: '1h' } } });
    try {
      const { user } = await makeUser(t, 'viewer');
      const res = await t.api('POST', '/api/auth/signin', { token: null, body: { email: user.email, password: PASSWORD } });
      const [h, p, sig] = res.body.token.split('.');
      expect(JSON.parse(Buffer.from(h, 'base64url').toString()).alg).toBe('HS512');
      expect(createHmac('sha512', TEST_SECRET).update(`${h}.${p}`).digest('base64url')).toBe(sig);
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
      expect(claims.exp - claims.iat).toBe(3600);
      // An HS256 token is refused where HS512 is configured.
      const now = Math.floor(Date.now() / 1000);
      expect((await t.api('GET', '/api/auth/me', { token: forgeJwt({ sub: user.id, iat: now, exp: now + 60 }) })).status).toBe(401);
      expect((await t.api('GET', '/api/auth/me', { token: res.body.token })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
