import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.js';

const apps: TestApp[] = [];
const start = async (rateLimit: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const t = await startTestApp({ rateLimit: { windowMs: 60_000, ...rateLimit }, ...extra });
  apps.push(t);
  return t;
};
afterAll(async () => {
  for (const t of apps) await t.close();
});

const headersOf = (res: { headers: Headers }) => ({
  limit: Number(res.headers.get('x-ratelimit-limit')),
  remaining: Number(res.headers.get('x-ratelimit-remaining')),
  reset: Number(res.headers.get('x-ratelimit-reset')),
});

describe('rate limits', () => {
  it('limits unauthenticated calls per IP, counting failed authentication, then answers 429 with Retry-After', async () => {
    const t = await start({ max: 3 });
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.api('GET', '/v1/projects', { token: i === 1 ? 'qk_wrongwrongwrongwrongwrongwrongwrongwrongwro' : null });
      expect(res.status).toBe(401);
      seen.push(headersOf(res));
    }
    expect(seen.map((h) => h.remaining)).toEqual([2, 1, 0]);
    for (const h of seen) {
      expect(h.limit).toBe(3);
      expect(Number.isInteger(h.reset) && h.reset > 0 && h.reset <= 60).toBe(true);
    }
    const limited = await t.api('GET', '/v1/projects', { token: null });
    expect([limited.status, limited.body.error.code]).toEqual([429, 'rate_limited']);
    const retry = Number(limited.headers.get('retry-after'));
    expect(retry > 0 && retry <= 60).toBe(true);
    expect(headersOf(limited).remaining).toBe(0);
    // A valid key has its own bucket, untouched by the IP's.
    expect((await t.api('GET', '/v1/projects')).status).toBe(200);
  });

  it('limits each key by its own rateLimit, or by maxAuthenticated', async () => {
    const t = await start({ max: 1000, maxAuthenticated: 4 });
    const tight = await t.key({ models: { projects: ['read'] }, rateLimit: { requests: 2, windowMs: 30_000 } });
    const normal = await t.key({ models: { projects: ['read'] } });
    const a = await t.api('GET', '/v1/projects', { token: tight });
    expect(headersOf(a)).toMatchObject({ limit: 2, remaining: 1 });
    expect(headersOf(a).reset).toBeLessThanOrEqual(30);
    expect((await t.api('GET', '/v1/projects', { token: tight })).status).toBe(200);
    expect((await t.api('GET', '/v1/projects', { token: tight })).status).toBe(429);
    for (let i = 0; i < 4; i++) expect((await t.api('GET', '/v1/projects', { token: normal })).status).toBe(200);
    const over = await t.api('GET', '/v1/projects', { token: normal });
    expect(over.status).toBe(429);
    expect(headersOf(over).limit).toBe(4);
  });

  it('adds IETF RateLimit-* headers when standardHeaders is on', async () => {
    const t = await start({ standardHeaders: true, maxAuthenticated: 50 });
    const res = await t.api('GET', '/v1/projects');
    expect(res.headers.get('ratelimit-limit')).toBe('50');
    expect(res.headers.get('ratelimit-remaining')).toBe('49');
    expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect(res.headers.get('ratelimit-policy')).toBe('50;w=60');
    const plain = await start({});
    expect((await plain.api('GET', '/v1/projects')).headers.get('ratelimit-limit')).toBeNull();
  });

  it('does not count successful requests when skipSuccessfulRequests is on', async () => {
    const t = await start({ skipSuccessfulRequests: true, maxAuthenticated: 2 });
    for (let i = 0; i < 5; i++) expect((await t.api('GET', '/v1/projects')).status).toBe(200);
    expect((await t.api('GET', '/v1/projects/prj_missing')).status).toBe(404);
    expect((await t.api('GET', '/v1/projects/prj_missing')).status).toBe(404);
    expect((await t.api('GET', '/v1/projects')).status).toBe(429);
  });

  it('shares counters between nodes through Redis', async () => {
    const redisUrl = process.env.QUARRY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const a = await start({ maxAuthenticated: 1000 }, { redisUrl });
    const b = await startTestApp({ redisUrl, dataDir: a.dataDir, ...(a.quarry.ctx.config.databaseSchema ? { databaseSchema: a.quarry.ctx.config.databaseSchema } : {}) });
    try {
      const shared = await a.key({ models: { projects: ['read'] }, rateLimit: { requests: 3, windowMs: 60_000 } });
      expect((await a.api('GET', '/v1/projects', { token: shared })).status).toBe(200);
      expect((await b.api('GET', '/v1/projects', { token: shared })).status).toBe(200);
      const third = await a.api('GET', '/v1/projects', { token: shared });
      expect(headersOf(third).remaining).toBe(0);
      expect((await b.api('GET', '/v1/projects', { token: shared })).status).toBe(429);
    } finally {
      await b.app.close();
      await b.quarry.ctx.close();
    }
  });

  it('can be switched off', async () => {
    const t = await start({ enabled: false, max: 1 });
    for (let i = 0; i < 3; i++) {
      const res = await t.api('GET', '/v1/projects', { token: null });
      expect(res.status).toBe(401);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});

