import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.js';

describe('HTTPS policy', () => {
  let strict: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    strict = await startTestApp({ server: { port: 0, host: '127.0.0.1', requireHttps: true } });
    proxied = await startTestApp({ server: { port: 0, host: '127.0.0.1', requireHttps: true, trustProxy: '127.0.0.1' } });
  });
  afterAll(async () => {
    await strict.close();
    await proxied.close();
  });

  it('refuses plain HTTP with a clear error when HTTPS is required', async () => {
    const res = await strict.api('GET', '/v1/projects');
    expect([res.status, res.body.error.code]).toEqual([403, 'https_required']);
    expect(res.body.error.message).toMatch(/https/i);
  });

  it('does not trust X-Forwarded-Proto from an untrusted peer', async () => {
    const res = await strict.api('GET', '/v1/projects', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(403);
  });

  it('accepts requests a trusted proxy marks as HTTPS', async () => {
    expect((await proxied.api('GET', '/v1/projects', { headers: { 'x-forwarded-proto': 'https' } })).status).toBe(200);
    expect((await proxied.api('GET', '/v1/projects', { headers: { 'x-forwarded-proto': 'http' } })).status).toBe(403);
  });

  it('keeps liveness probes reachable over plain HTTP', async () => {
    expect((await strict.api('GET', '/health', { token: null })).status).toBe(200);
  });
});

describe('TLS termination', () => {
  it('serves HTTPS itself with QUARRY_TLS_CERT and QUARRY_TLS_KEY', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-tls-'));
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
    const t = await startTestApp({ server: { port: 0, host: '127.0.0.1', requireHttps: true, tls: { cert, key } } });
    try {
      const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
      const res = await undiciFetch(`${t.url.replace('http:', 'https:')}/v1/projects`, { headers: { authorization: `Bearer ${t.adminKey}` }, dispatcher });
      expect(res.status).toBe(200);
      await dispatcher.close();
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
