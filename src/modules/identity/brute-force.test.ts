import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';
import { email, makeUser, PASSWORD, TEST_SECRET } from './test-support.js';

// Lock-outs are short in tests; instead of waiting one out, a test lifts the lock the way its expiry would.
const settings = { freeRetries: 2, minWait: 2000, maxWait: 5000, failuresBeforeBrute: 4 };

const signIn = (t: TestApp, address: string, password: string) => t.api('POST', '/api/auth/signin', { token: null, body: { email: address, password } });
const expireLocks = async (t: TestApp, address: string) => {
  await t.quarry.ctx.counters.reset(`bf:email:${address}:lock`);
  await t.quarry.ctx.counters.reset('bf:ip:127.0.0.1:lock');
};
const resetIp = async (t: TestApp) => {
  await t.quarry.ctx.counters.reset('bf:ip:127.0.0.1:failures');
  await t.quarry.ctx.counters.reset('bf:ip:127.0.0.1:lock');
};

describe('brute-force protection', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ rateLimit: { enabled: false }, auth: { jwt: { secret: TEST_SECRET }, bruteForce: settings } });
  });
  afterAll(() => t.close());

  it('locks an e-mail after the free retries, doubling the wait up to maxWait', async () => {
    await resetIp(t);
    const { user } = await makeUser(t, 'viewer');
    // Per-IP limit is 4: keep it out of this test by lifting it between attempts.
    const fail = async () => {
      const res = await signIn(t, user.email, 'wrong password');
      await t.quarry.ctx.counters.reset('bf:ip:127.0.0.1:failures');
      return res;
    };
    expect((await fail()).status).toBe(401);
    expect((await fail()).status).toBe(401);
    expect((await fail()).status).toBe(401); // the third failure is one past the free ones: locks for minWait
    const blocked = await signIn(t, user.email, PASSWORD);
    expect([blocked.status, blocked.body.error.code]).toEqual([429, 'too_many_attempts']);
    expect(blocked.headers.get('retry-after')).toBe('2');

    for (const expected of ['4', '5', '5']) {
      await expireLocks(t, user.email);
      expect((await fail()).status).toBe(401);
      const res = await signIn(t, user.email, 'wrong password');
      expect([res.status, res.headers.get('retry-after')]).toEqual([429, expected]);
    }
    // Another address from the same place is not locked by this one.
    expect((await signIn(t, email('other'), 'whatever')).status).toBe(401);

    await expireLocks(t, user.email);
    expect((await signIn(t, user.email, PASSWORD)).status).toBe(200);
    // The success cleared the count: free retries again.
    expect((await fail()).status).toBe(401);
    expect((await fail()).status).toBe(401);
    expect((await signIn(t, user.email, PASSWORD)).status).toBe(200);
  });

  it('locks an IP that fails across many e-mails', async () => {
    await resetIp(t);
    const { user } = await makeUser(t, 'viewer');
    for (let i = 0; i < 5; i++) expect((await signIn(t, email(`spray${i}`), 'wrong password')).status).toBe(401);
    const res = await signIn(t, user.email, PASSWORD);
    expect([res.status, res.body.error.code, res.headers.get('retry-after')]).toEqual([429, 'too_many_attempts', '2']);
    await resetIp(t);
    expect((await signIn(t, user.email, PASSWORD)).status).toBe(200);
  });
});

describe('brute-force protection shared through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    // Two nodes on one Redis: a lock earned on one holds on the other. The IP limit is set out of
    // reach because other test files may share this Redis from the same address.
    const overrides = { rateLimit: { enabled: false }, redisUrl: 'redis://127.0.0.1:6379', auth: { jwt: { secret: TEST_SECRET }, bruteForce: { ...settings, failuresBeforeBrute: 100_000 } } };
    a = await startTestApp(overrides, { workers: false });
    b = await startTestApp(overrides, { workers: false });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('locks an e-mail on every node', async () => {
    const address = email('shared');
    for (let i = 0; i < 3; i++) expect((await signIn(i % 2 ? a : b, address, 'wrong password')).status).toBe(401);
    const res = await signIn(b, address, 'wrong password');
    expect([res.status, res.headers.get('retry-after')]).toEqual([429, '2']);
    expect((await signIn(a, address, 'wrong password')).status).toBe(429);
    await b.quarry.ctx.counters.reset(`bf:email:${address}:lock`);
    await b.quarry.ctx.counters.reset(`bf:email:${address}:failures`);
  });
});
