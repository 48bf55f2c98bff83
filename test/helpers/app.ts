import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { assemble, buildServer, configSections, migrate, type Quarry } from '../../src/app.js';
import { loadConfig } from '../../src/kernel/config/load.js';
import { createContext } from '../../src/kernel/context.js';
import type { App } from '../../src/kernel/http/server.js';

/** Set QUARRY_TEST_DATABASE_URL to run every HTTP test on PostgreSQL instead of SQLite. */
export const testDatabaseUrl = process.env.QUARRY_TEST_DATABASE_URL;
export const dialectUnderTest = testDatabaseUrl ? 'postgres' : 'sqlite';

export interface TestApp {
  url: string;
  app: App;
  quarry: Quarry;
  /** An admin API key, created for convenience. */
  adminKey: string;
  dataDir: string;
  api: (method: string, path: string, options?: RequestOptions) => Promise<ApiResponse>;
  /** Creates an API key with the given permission document. */
  key: (permissions: Record<string, unknown>) => Promise<string>;
  close: () => Promise<void>;
}

export interface RequestOptions {
  /** A bearer credential; `null` sends none. Defaults to the admin key. */
  token?: string | null;
  body?: unknown;
  /** A raw body sent as-is (with your own content type). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/** Starts the real server on a free loopback port, on a fresh database (a new schema on PostgreSQL). */
export async function startTestApp(overrides: Record<string, unknown> = {}, options: { workers?: boolean } = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-test-'));
  const schema = testDatabaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const config = loadConfig(configSections, {
    env: {},
    file: false,
    overrides: {
      env: 'test',
      logLevel: process.env.QUARRY_TEST_LOG_LEVEL ?? 'silent',
      dataDir,
      server: { port: 0, host: '127.0.0.1' },
      auth: { jwt: { secret: 'test-secret-that-is-long-enough-for-hs256!!' } },
      // Debian's PostgreSQL has no pgvector: the app runs keyword-only there (QUARRY_VECTOR=off).
      ...(testDatabaseUrl ? { databaseUrl: testDatabaseUrl, databaseSchema: schema, ingestion: { vector: 'off' } } : {}),
      ...overrides,
    },
  });
  const ctx = await createContext(config, 'serve');
  await migrate(ctx);
  const quarry = await assemble(ctx);
  const app = await buildServer(quarry);
  // Without workers, queued runs stay queued: for tests about the API rather than the engine.
  if (options.workers !== false) await quarry.startWorkers();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const adminKey = (await quarry.services.apiKeys.create({ name: 'test admin', permissions: { admin: true } })).key;

  const api = async (method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const token = options.token === undefined ? adminKey : options.token;
    if (token) headers.authorization ??= `Bearer ${token}`;
    let body: string | Buffer | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, { method, headers, body: body as BodyInit | undefined });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  return {
    url,
    app,
    quarry,
    adminKey,
    dataDir,
    api,
    key: async (permissions) => (await quarry.services.apiKeys.create({ name: 'test key', permissions })).key,
    close: async () => {
      await app.close();
      await ctx.close();
      if (testDatabaseUrl && schema) {
        const client = new pg.Client({ connectionString: testDatabaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
