import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testDatabaseUrl, type TestApp } from './helpers/app.js';

const run = promisify(execFile);
let t: TestApp;

// The CLI runs from the sources (not dist/) so the test exercises the code under test.
const quarry = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    env: {
      ...process.env,
      QUARRY_DATA_DIR: t.dataDir,
      QUARRY_LOG_LEVEL: 'silent',
      // Debian's PostgreSQL has no pgvector: the CLI, like the test app, runs keyword-only there.
      ...(testDatabaseUrl ? { DATABASE_URL: testDatabaseUrl, QUARRY_DATABASE_SCHEMA: t.quarry.ctx.config.databaseSchema!, QUARRY_VECTOR: 'off' } : {}),
    },
  }).catch((err: { code: number; stdout: string; stderr: string }) => ({ ...err, failed: true }));

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('quarry CLI (while the server runs)', () => {
  it('creates a key whose plaintext is the only line on stdout, lists and revokes it', { timeout: 120_000 }, async () => {
    const created = await quarry(['keys', 'create', '--name', 'ci', '--permissions', '{"models":{"projects":["read"]}}']);
    const lines = created.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const key = lines[0]!;
    expect(key).toMatch(/^qk_/);
    expect((await t.api('GET', '/v1/projects', { token: key })).status).toBe(200);
    expect((await t.api('POST', '/v1/projects', { token: key, body: { name: 'no' } })).status).toBe(403);

    const listed = await quarry(['keys', 'list']);
    const line = listed.stdout.split('\n').find((l) => l.includes(key.slice(0, 11)));
    expect(line).toBeDefined();
    expect(listed.stdout).not.toContain(key.slice(11));
    const id = line!.split('\t')[0]!;
    await quarry(['keys', 'revoke', id]);
    expect((await t.api('GET', '/v1/projects', { token: key })).status).toBe(401);
  });

  it('creates admin keys and users', { timeout: 120_000 }, async () => {
    const admin = (await quarry(['keys', 'create', '--name', 'root', '--admin'])).stdout.trim();
    expect((await t.api('DELETE', '/v1/projects/prj_none', { token: admin })).status).toBe(404);
    const user = await quarry(['users', 'create', '--email', 'Ops@Example.com', '--name', 'Ops', '--password', 'a long password', '--role', 'editor']);
    expect(user.stdout.trim()).toMatch(/^usr_/);
    const row = await t.quarry.ctx.db.selectFrom('users').selectAll().where('id', '=', user.stdout.trim()).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: 'ops@example.com', role: 'editor' });
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  // Each case starts a CLI process; on a loaded 2-core machine that takes seconds apiece.
  it('explains bad input with a non-zero exit', { timeout: 180_000 }, async () => {
    const noName = (await quarry(['keys', 'create'])) as { code?: number; stderr: string };
    expect(noName.code).toBe(2);
    expect(noName.stderr).toMatch(/--name is required/);
    const badJson = (await quarry(['keys', 'create', '--name', 'x', '--permissions', '{nope'])) as { code?: number; stderr: string };
    expect(badJson.code).toBe(2);
    const badPerm = (await quarry(['keys', 'create', '--name', 'x', '--permissions', '{"models":{"projects":["fly"]}}'])) as { code?: number; stderr: string };
    expect(badPerm.code).toBe(1);
    expect(badPerm.stderr).toMatch(/validation_failed/);
    const badUser = (await quarry(['users', 'create', '--email', 'nope', '--name', 'x', '--password', 'short'])) as { code?: number; stderr: string };
    expect(badUser.code).toBe(1);
    expect(badUser.stderr).toMatch(/email/);
    const unknown = (await quarry(['frobnicate'])) as { code?: number; stderr: string };
    expect(unknown.code).toBe(2);
    expect((await quarry(['migrate'])).stdout).toMatch(/up to date/);
  });
});
