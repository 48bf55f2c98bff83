import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';
import { email, makeUser, PASSWORD, startSession, TEST_SECRET } from './test-support.js';

const SMTP_PASS = 'smtp-secret-password';

describe('password reset by e-mail', () => {
  let t: TestApp;
  let smtp: SMTPServer;
  const inbox: Array<{ to: string; raw: string }> = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _session, cb) {
        if (auth.username === 'quarry' && auth.password === SMTP_PASS) cb(null, { user: 'quarry' });
        else cb(new Error('bad credentials'));
      },
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString()));
        stream.on('end', () => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
          cb();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const port = (smtp.server.address() as AddressInfo).port;
    t = await startTestApp({
      rateLimit: { enabled: false },
      auth: { jwt: { secret: TEST_SECRET }, providers: { email: { enabled: true, host: '127.0.0.1', port, user: 'quarry', pass: SMTP_PASS, from: 'Quarry <quarry@example.com>' } } },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  const request = (address: string) => t.api('POST', '/api/auth/reset-password', { token: null, body: { email: address } });
  const confirm = (token: string, password: string) => t.api('POST', '/api/auth/reset-password/confirm', { token: null, body: { token, password } });
  // Quoted-printable folds long lines and escapes '='.
  const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const tokenFrom = (raw: string) => /\/admin\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(unfold(raw))?.[1];

  it('mails a single-use link, and the new password ends old tokens and sessions', async () => {
    const { user, token: oldToken } = await makeUser(t, 'editor');
    const { cookie } = await startSession(t, oldToken);
    const res = await request(user.email.toUpperCase());
    expect([res.status, res.body]).toEqual([202, { ok: true }]);
    await t.quarry.ctx.background.drain();
    const mail = inbox.find((m) => m.to === user.email)!;
    const token = tokenFrom(mail.raw)!;
    expect(unfold(mail.raw)).toContain(`${t.url}/admin/reset-password?token=${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await t.quarry.ctx.db.selectFrom('password_resets').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(token);

    expect((await confirm(token, 'short')).status).toBe(400);
    const done = await confirm(token, 'a brand new password');
    expect([done.status, done.body]).toEqual([200, { ok: true }]);

    expect((await t.api('GET', '/api/auth/me', { token: oldToken })).status).toBe(401);
    expect((await t.api('GET', '/api/auth/me', { token: null, headers: { cookie } })).status).toBe(401);
    expect((await t.api('POST', '/api/auth/signin', { token: null, body: { email: user.email, password: PASSWORD } })).status).toBe(401);
    const fresh = await t.api('POST', '/api/auth/signin', { token: null, body: { email: user.email, password: 'a brand new password' } });
    expect(fresh.status).toBe(200);
    expect((await t.api('GET', '/api/auth/me', { token: fresh.body.token })).status).toBe(200);

    const reused = await confirm(token, 'yet another password');
    expect([reused.status, reused.body.error.code]).toEqual([400, 'invalid_token']);
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const before = inbox.length;
    const res = await request(email('nobody'));
    expect([res.status, res.body]).toEqual([202, { ok: true }]);
    await t.quarry.ctx.background.drain();
    expect(inbox.length).toBe(before);
    expect((await request('not-an-address')).status).toBe(400);
  });

  it('lets only one of two concurrent confirmations spend a token', async () => {
    const { user } = await makeUser(t, 'viewer');
    await request(user.email);
    await t.quarry.ctx.background.drain();
    const token = tokenFrom(inbox.find((m) => m.to === user.email)!.raw)!;
    const answers = await Promise.all([confirm(token, 'first new password'), confirm(token, 'second new password')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
  });

  it('refuses expired and made-up tokens', async () => {
    const { user } = await makeUser(t, 'viewer');
    await request(user.email);
    await t.quarry.ctx.background.drain();
    const token = tokenFrom(inbox.find((m) => m.to === user.email)!.raw)!;
    await t.quarry.ctx.db.updateTable('password_resets').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', user.id).execute();
    expect((await confirm(token, 'a brand new password')).body.error.code).toBe('invalid_token');
    expect((await confirm('made-up-token', 'a brand new password')).status).toBe(400);
  });
});
