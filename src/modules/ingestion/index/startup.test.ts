import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { assemble, configSections, migrate } from '../../../app.js';
import { loadConfig } from '../../../kernel/config/load.js';
import { createContext } from '../../../kernel/context.js';
import { dialectUnderTest, startTestApp, testDatabaseUrl } from '../../../../test/helpers/app.js';

async function pgvectorAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    return (await client.query(`select 1 from pg_available_extensions where name = 'vector'`)).rowCount! > 0;
  } finally {
    await client.end();
  }
}

describe('vector index start-up', () => {
  it.runIf(dialectUnderTest === 'postgres')('fails clearly on PostgreSQL without pgvector unless QUARRY_VECTOR=off', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'quarry-test-'));
    const config = loadConfig(configSections, {
      env: { QUARRY_VECTOR: 'on' },
      file: false,
      overrides: { env: 'test', logLevel: 'silent', dataDir, databaseUrl: testDatabaseUrl, databaseSchema: schema, auth: { jwt: { secret: 'x'.repeat(40) } } },
    });
    const ctx = await createContext(config, 'serve');
    try {
      await migrate(ctx);
      if (await pgvectorAvailable()) await expect(assemble(ctx)).resolves.toBeDefined();
      else await expect(assemble(ctx)).rejects.toThrow(/no pgvector extension.*QUARRY_VECTOR=off/s);
    } finally {
      await ctx.close();
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('with vectors off, semantic and hybrid search answer from the keyword index and say so', async () => {
    const t = await startTestApp({ ingestion: { vector: 'off' } });
    try {
      const projectId = (await t.api('POST', '/v1/projects', { body: { name: 'Off' } })).body.id;
      const sourceId = (await t.api('POST', '/v1/sources', { body: { projectId, type: 'web', config: { urls: ['https://off.example.com/'] } } })).body.id;
      await t.quarry.services.index.upsertDocument({
        sourceId,
        projectId,
        runId: 'run_1',
        url: 'https://off.example.com/',
        page: { url: 'https://off.example.com/', canonicalUrl: null, title: 'Owls', description: null, language: null, markdown: 'Owls hunt at night.', links: [] },
        chunks: [{ position: 0, text: 'Owls hunt at night.', headingPath: [], tokens: 4 }],
        vectors: null,
      });
      for (const mode of ['semantic', 'hybrid']) {
        const res = await t.api('POST', `/v1/projects/${projectId}/search`, { body: { query: 'owls at night', mode } });
        expect(res.status).toBe(200);
        expect([res.body.mode, res.headers.get('x-search-mode')]).toEqual(['keyword', 'keyword']);
        expect(res.body.data.map((h: { title: string }) => h.title)).toEqual(['Owls']);
      }
    } finally {
      await t.close();
    }
  });
});
