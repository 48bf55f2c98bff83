import { createHmac } from 'node:crypto';
import type { TestApp } from '../../../test/helpers/app.js';

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256!!';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An HS256 JWT made with node:crypto alone, independent of the app's jose. */
export function forgeJwt(payload: Record<string, unknown>, secret = TEST_SECRET, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }) {
  const body = `${b64(header)}.${b64(payload)}`;
  if (header.alg === 'none') return `${body}.`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** Checks an HS256 signature with node:crypto and returns the payload, or null. */
export function verifyHs256(token: string, secret = TEST_SECRET): Record<string, unknown> | null {
  const [h, p, s] = token.split('.');
  if (!h || !p || !s) return null;
  const header = JSON.parse(Buffer.from(h, 'base64url').toString());
  if (header.alg !== 'HS256') return null;
  if (createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url') !== s) return null;
  return JSON.parse(Buffer.from(p, 'base64url').toString());
}

export const email = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}@example.com`;
export const PASSWORD = 'correct horse battery staple';

/** A user made through the service, with a fresh access token. */
export async function makeUser(t: TestApp, role: string, password = PASSWORD) {
  const users = t.quarry.services.users;
  const user = await users.create({ email: email(role), name: role, password, role });
  return { user, token: (await users.issueToken(user)).token, password };
}

/** `session=…` from a response's Set-Cookie, ready for a Cookie header. */
export function sessionCookie(headers: Headers): string | undefined {
  const line = headers.getSetCookie().find((c) => c.startsWith('session='));
  return line?.split(';')[0];
}

export async function startSession(t: TestApp, token: string) {
  const res = await t.api('POST', '/api/auth/session', { token });
  if (res.status !== 201) throw new Error(`session: ${res.status} ${res.text}`);
  return { cookie: sessionCookie(res.headers)!, res };
}
