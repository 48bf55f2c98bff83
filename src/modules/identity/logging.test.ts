import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assemble, buildServer, configSections, migrate } from '../../app.js';
import { loadConfig } from '../../kernel/config/load.js';
import { createContext, REDACT_PATHS, type AppContext } from '../../kernel/context.js';
import type { App } from '../../kernel/http/server.js';
import { testDatabaseUrl } from '../../../test/helpers/app.js';
import { PASSWORD, sessionCookie, TEST_SECRET } from './test-support.js';

const SMTP_PASS = 'smtp-password-never-logged';
const CLIENT_SECRET = 'client-secret-never-logged';

// Built by hand rather than with startTestApp: the point is to own the log stream.
describe('logs at debug level hold no secret', () => {
  const lines: string[] = [];
  let ctx: AppContext;
  let app: App;
  let url: string;
  let smtp: SMTPServer;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-identity-log-'));

  beforeAll(async () => {
    smtp = new SMTPServer({ authOptional: true, allowInsecureAuth: true, disabledCommands: ['STARTTLS'], onAuth: (_a, _s, cb) => cb(null, { user: 'x' }), onData: (s, _x, cb) => s.on('end', () => cb()).resume() });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const config = loadConfig(configSections, {
      env: {},
      file: false,
      overrides: {
        env: 'test',
        logLevel: 'debug',
        dataDir,
        // As in test/helpers/app.ts: Debian's PostgreSQL has no pgvector.
        ...(testDatabaseUrl ? { databaseUrl: testDatabaseUrl, databaseSchema: schema, ingestion: { vector: 'off' } } : {}),
        server: { port: 0, host: '127.0.0.1' },
        auth: {
          jwt: { secret: TEST_SECRET },
          providers: {
            email: { enabled: true, host: '127.0.0.1', port: (smtp.server.address() as AddressInfo).port, user: 'quarry', pass: SMTP_PASS },
            codehost: { enabled: true, clientId: 'id', clientSecret: CLIENT_SECRET, authorizeUrl: 'http://127.0.0.1:9/a', tokenUrl: 'http://127.0.0.1:9/t', userUrl: 'http://127.0.0.1:9/u' },
          },
        },
      },
    });
    const sink = new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) });
    const log = pino({ level: 'debug', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink) as FastifyBaseLogger;
    ctx = await createContext(config, 'serve', log);
    await migrate(ctx);
    app = await buildServer(await assemble(ctx));
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
    await new Promise<void>((r) => smtp.close(() => r()));
    rmSync(dataDir, { recursive: true, force: true });
    if (testDatabaseUrl) {
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });

  it('after invite, sign-in, session, reset and OAuth start', async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const invited = await (await post('/api/auth/invite', { email: 'root@example.com', password: PASSWORD, name: 'Root' })).json();
    const signIn = await (await post('/api/auth/signin', { email: 'root@example.com', password: PASSWORD })).json();
    await post('/api/auth/signin', { email: 'root@example.com', password: 'a wrong password' });
    const session = await fetch(`${url}/api/auth/session`, { method: 'POST', headers: { authorization: `Bearer ${signIn.token}` } });
    const cookie = sessionCookie(session.headers)!;
    await fetch(`${url}/api/auth/me`, { headers: { cookie } });
    await post('/api/auth/reset-password', { email: 'root@example.com' });
    await ctx.background.drain();
    await fetch(`${url}/api/auth/codehost`, { redirect: 'manual' });
    await post('/api/auth/reset-password/confirm', { token: 'x'.repeat(43), password: 'another long password' });

    const all = lines.join('');
    expect(all).toContain('incoming request'); // the control: debug request logging was on
    for (const secret of [PASSWORD, 'a wrong password', SMTP_PASS, CLIENT_SECRET, TEST_SECRET, invited.token, signIn.token, cookie.slice(8)])
      expect(all).not.toContain(secret);
  });
});
