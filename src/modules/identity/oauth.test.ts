import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';
import { email, makeUser, sessionCookie, TEST_SECRET, verifyHs256 } from './test-support.js';

/** A GitHub-style provider on loopback: authorize, token (with PKCE and client secret), /user, /user/emails. */
function fakeCodehost() {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const state = { emails: [] as Array<{ email: string; verified: boolean; primary: boolean }>, tokenCalls: 0 };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/login/oauth/authorize') {
      const code = randomUUID();
      if (url.searchParams.get('code_challenge_method') !== 'S256') return json(400, { error: 'pkce required' });
      codes.set(code, { challenge: url.searchParams.get('code_challenge')!, redirectUri: url.searchParams.get('redirect_uri')! });
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      return res.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      state.tokenCalls++;
      let body = '';
      for await (const chunk of req) body += chunk;
      const form = new URLSearchParams(body);
      const saved = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
      if (!saved || saved.challenge !== challenge || saved.redirectUri !== form.get('redirect_uri') || form.get('client_secret') !== 'codehost-secret')
        return json(401, { error: 'bad_verification_code' });
      return json(200, { access_token: 'gho_fake', token_type: 'bearer' });
    }
    if (req.headers.authorization !== 'Bearer gho_fake') return json(401, { message: 'Bad credentials' });
    if (url.pathname === '/user') return json(200, { login: 'octo', name: 'Octo Cat', id: 1 });
    if (url.pathname === '/user/emails') return json(200, state.emails);
    return json(404, {});
  });
  return { server, state };
}

/** Follows one redirect by hand, as a browser would, without keeping cookies. */
const go = (url: string) => fetch(url, { redirect: 'manual' });

describe('OAuth sign-in', () => {
  let t: TestApp;
  let oidc: OAuth2Server;
  const codehost = fakeCodehost();
  let oidcClaims: Record<string, unknown> = {};

  beforeAll(async () => {
    oidc = new OAuth2Server();
    await oidc.issuer.keys.generate('RS256');
    await oidc.start(0, '127.0.0.1');
    oidc.service.on('beforeUserinfo', (res: { body: Record<string, unknown> }) => {
      res.body = { sub: 'johndoe', ...oidcClaims };
    });
    codehost.server.listen(0, '127.0.0.1');
    await once(codehost.server, 'listening');
    const ch = `http://127.0.0.1:${(codehost.server.address() as AddressInfo).port}`;
    t = await startTestApp({
      rateLimit: { enabled: false },
      auth: {
        jwt: { secret: TEST_SECRET },
        providers: {
          codehost: { enabled: true, clientId: 'codehost-client', clientSecret: 'codehost-secret', authorizeUrl: `${ch}/login/oauth/authorize`, tokenUrl: `${ch}/login/oauth/access_token`, userUrl: `${ch}/user`, emailsUrl: `${ch}/user/emails`, allowSignup: true },
          oidc: { enabled: true, clientId: 'quarry-client', clientSecret: 'oidc-secret', issuer: oidc.issuer.url!, allowSignup: false },
          off: { enabled: false, clientId: 'x', issuer: oidc.issuer.url! },
        },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await oidc.stop();
    await new Promise<void>((r) => codehost.server.close(() => r()));
  });

  /** Start → provider → callback; returns the callback's answer. */
  async function flow(provider: string, query = '') {
    const start = await go(`${t.url}/api/auth/${provider}${query}`);
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const atProvider = await go(authorize.toString());
    const callback = atProvider.headers.get('location')!;
    expect(callback.startsWith(`${t.url}/api/auth/${provider}/callback?`)).toBe(true);
    return { callback, res: await go(callback) };
  }

  it('codehost: creates a viewer from the primary verified e-mail and answers JSON', async () => {
    const address = email('octo');
    codehost.state.emails = [{ email: 'unverified@example.com', verified: false, primary: true }, { email: address, verified: true, primary: false }];
    const { res } = await flow('codehost');
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.user).toMatchObject({ email: address, role: 'viewer', name: 'Octo Cat' });
    expect(verifyHs256(body.token)).toMatchObject({ sub: body.user.id });
  });

  it('codehost: refuses when no e-mail is verified', async () => {
    codehost.state.emails = [{ email: email('nope'), verified: false, primary: true }];
    const { res } = await flow('codehost');
    expect([res.status, (await res.json()).error.code]).toEqual([403, 'email_not_verified']);
  });

  it('oidc: links an existing user by verified e-mail, sets the cookie and redirects', async () => {
    const { user } = await makeUser(t, 'editor');
    oidcClaims = { email: user.email.toUpperCase(), email_verified: true, name: 'John' };
    const { res } = await flow('oidc', `?redirect=${encodeURIComponent('/admin/projects?tab=1')}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin/projects?tab=1');
    const cookie = sessionCookie(res.headers)!;
    const me = await t.api('GET', '/api/auth/me', { token: null, headers: { cookie } });
    expect([me.status, me.body.id]).toEqual([200, user.id]);
  });

  it('oidc: refuses unverified e-mails and, with sign-up off, unknown ones', async () => {
    oidcClaims = { email: email('someone'), email_verified: false };
    expect((await flow('oidc')).res.status).toBe(403);
    oidcClaims = { email: email('stranger'), email_verified: true };
    const { res } = await flow('oidc');
    expect([res.status, (await res.json()).error.code]).toEqual([403, 'signup_disabled']);
  });

  it('refuses a state that does not match, or is used twice', async () => {
    codehost.state.emails = [{ email: email('twice'), verified: true, primary: true }];
    const { callback, res } = await flow('codehost');
    expect(res.status).toBe(200);
    const replay = await go(callback);
    expect([replay.status, (await replay.json()).error.code]).toEqual([400, 'invalid_state']);
    const forged = new URL(callback);
    forged.searchParams.set('state', 'made-up-state');
    expect((await go(forged.toString())).status).toBe(400);
    // A state from one provider's flow does not finish another's.
    const fresh = new URL((await go(`${t.url}/api/auth/codehost`)).headers.get('location')!).searchParams.get('state')!;
    const crossed = await go(`${t.url}/api/auth/oidc/callback?code=x&state=${fresh}`);
    expect([crossed.status, (await crossed.json()).error.code]).toEqual([400, 'invalid_state']);
  });

  it.each(['//evil.com/admin', 'https://evil.com/admin', '/\\evil.com', 'admin', '/admin/\n'])('refuses the redirect %j', async (redirect) => {
    const res = await go(`${t.url}/api/auth/codehost?redirect=${encodeURIComponent(redirect)}`);
    expect([res.status, (await res.json()).error.code]).toEqual([400, 'invalid_redirect']);
  });

  it('answers 404 for unknown or disabled providers', async () => {
    for (const name of ['nosuch', 'off', 'email', 'constructor']) {
      const res = await go(`${t.url}/api/auth/${name}`);
      expect([name, res.status]).toEqual([name, 404]);
    }
  });

  it('documents every identity route in OpenAPI, with no secret in it', async () => {
    const doc = await t.api('GET', '/v1/openapi.json');
    expect(doc.status).toBe(200);
    for (const path of ['/api/auth/invite', '/api/auth/signin', '/api/auth/reset-password', '/api/auth/reset-password/confirm', '/api/auth/session', '/api/auth/me', '/api/auth/{provider}', '/api/auth/{provider}/callback', '/api/admin/users', '/api/admin/users/{id}'])
      expect(Object.keys(doc.body.paths)).toContain(path);
    for (const secret of ['codehost-secret', 'oidc-secret', TEST_SECRET]) expect(doc.text).not.toContain(secret);
  });
});
