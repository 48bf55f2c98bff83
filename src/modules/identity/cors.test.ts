import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';
import { TEST_SECRET } from './test-support.js';

const ALLOWED = 'https://ui.example.com';

describe('CORS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      auth: { jwt: { secret: TEST_SECRET } },
      cors: { origin: [ALLOWED], methods: ['GET', 'POST', 'DELETE'], allowedHeaders: ['Authorization', 'Content-Type'] },
    });
  });
  afterAll(() => t.close());

  const preflight = (origin: string) =>
    fetch(`${t.url}/api/auth/signin`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });

  it('answers a preflight from a listed origin', async () => {
    const res = await preflight(ALLOWED);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
  });

  it('gives an unknown origin no CORS headers', async () => {
    const res = await preflight('https://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const get = await t.api('GET', '/v1/projects', { headers: { origin: 'https://evil.example' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('adds CORS headers to answers for a listed origin, errors included', async () => {
    const ok = await t.api('GET', '/v1/projects', { headers: { origin: ALLOWED } });
    expect(ok.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const refused = await t.api('GET', '/v1/projects', { token: null, headers: { origin: ALLOWED } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });
});
