import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testDatabaseUrl, type TestApp } from '../../../test/helpers/app.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** An independent receiver: records raw requests and fails the first `failFirst` of them. */
async function receiver(failFirst = 0) {
  const got: Received[] = [];
  let failures = failFirst;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = failures-- > 0 ? 503 : 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/hook`, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function until<T>(fn: () => T | undefined | false | Promise<T | undefined | false>, what: string, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const hex = (secret: string, text: string) => `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;

/** Verifies both signatures the way a receiver would, from the raw body alone. */
function verify(r: Received, secret: string) {
  expect(r.headers['x-quarry-signature-256']).toBe(hex(secret, r.body));
  const match = /^(.*),"signature":"(sha256=[0-9a-f]{64})"}$/s.exec(r.body);
  expect(match).not.toBeNull();
  const unsigned = `${match![1]}}`;
  expect(match![2]).toBe(hex(secret, unsigned));
  return JSON.parse(r.body) as { event: string; model: string | null; data: Record<string, unknown>; timestamp: string; signature: string };
}

const SECRET = 'test-webhook-secret-0123456789';
const fast = { pollMs: 30, retryBaseMs: 100, timeoutMs: 2000 };

describe('webhooks', () => {
  let t: TestApp;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let flaky: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    hook = await receiver();
    flaky = await receiver(2);
    t = await startTestApp({
      webhooks: {
        ...fast,
        endpoints: [
          { url: hook.url, events: ['content.*', 'ingestion.failed'], models: ['posts'], secret: SECRET },
          { url: flaky.url, events: ['content.deleted'], secret: SECRET },
        ],
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
    await flaky.close();
  });

  it('signs content events so an independent receiver can verify them', async () => {
    const created = (await t.api('POST', '/api/posts', { body: { title: 'Hooked', slug: 'hooked' } })).body.data;
    await t.api('POST', '/api/blogPosts', { body: { title: 'Other model', slug: 'other' } });
    const r = await until(() => hook.got.find((g) => g.body.includes(created.id)), 'the created event');
    const payload = verify(r, SECRET);
    expect(payload).toMatchObject({ event: 'content.created', model: 'posts', data: { id: created.id, title: 'Hooked', slug: 'hooked' } });
    expect(Object.keys(payload)).toEqual(['event', 'model', 'data', 'timestamp', 'signature']);
    expect(r.headers['x-quarry-event']).toBe('content.created');
    expect(r.headers['x-quarry-delivery']).toMatch(/^dlv_/);
    expect(r.headers['user-agent']).toMatch(/^Quarry-Webhooks\//);
    expect(r.headers['content-type']).toBe('application/json');
    await new Promise((res) => setTimeout(res, 200));
    expect(hook.got.some((g) => g.body.includes('Other model'))).toBe(false); // endpoint limited to posts
  });

  it('retries with backoff until the receiver accepts, and logs each delivery', async () => {
    const id = (await t.api('POST', '/api/posts', { body: { title: 'Doomed', slug: 'doomed' } })).body.data.id;
    expect((await t.api('DELETE', `/api/posts/${id}`)).status).toBe(204);
    await until(() => flaky.got.length >= 3, 'three attempts');
    const ids = new Set(flaky.got.map((g) => g.headers['x-quarry-delivery']));
    expect(ids.size).toBe(1); // the same delivery, retried
    for (const g of flaky.got) expect(verify(g, SECRET)).toMatchObject({ event: 'content.deleted', data: { id } });
    const log = await until(async () => {
      const res = await t.api('GET', `/api/admin/webhooks/deliveries?status=succeeded&limit=100`);
      return res.body.data.find((d: { id: string }) => d.id === [...ids][0]);
    }, 'the log entry');
    expect(log).toMatchObject({ status: 'succeeded', attempts: 3, responseCode: 204, event: 'content.deleted' });
    expect(typeof log.durationMs).toBe('number');
  });

  it('redelivers as a new delivery of the same payload', async () => {
    const first = hook.got[0]!;
    const deliveryId = first.headers['x-quarry-delivery'] as string;
    const res = await t.api('POST', `/api/admin/webhooks/deliveries/${deliveryId}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'pending', redeliveryOf: deliveryId });
    const again = await until(() => hook.got.find((g) => g.headers['x-quarry-delivery'] === res.body.data.id), 'the redelivery');
    expect(JSON.parse(again.body).data).toEqual(JSON.parse(first.body).data);
    expect((await t.api('POST', '/api/admin/webhooks/deliveries/dlv_nope/redeliver')).body.error.code).toBe('delivery_not_found');
  });

  it('sends finished ingestion runs to endpoints that list them', async () => {
    await t.quarry.services.ingestion.emitFinished({ runId: 'run_x', status: 'failed' } as never);
    const r = await until(() => hook.got.find((g) => g.headers['x-quarry-event'] === 'ingestion.failed'), 'the ingestion event');
    expect(verify(r, SECRET)).toMatchObject({ event: 'ingestion.failed', model: null, data: { runId: 'run_x' } });
  });

  it('lets admins manage endpoints without ever showing a secret in full', async () => {
    const list = await t.api('GET', '/api/admin/webhooks');
    expect(list.body.data).toHaveLength(2);
    expect(list.text).not.toContain(SECRET);
    expect(list.body.data[0]).toMatchObject({ source: 'config', secret: expect.stringMatching(/6789$/) });
    expect((await t.api('PATCH', `/api/admin/webhooks/${list.body.data[0].id}`, { body: { enabled: false } })).body.error.code).toBe('webhook_read_only');

    const own = await receiver();
    const created = await t.api('POST', '/api/admin/webhooks', { body: { url: own.url, events: ['content.updated'], secret: 'another-secret-value-42' } });
    expect(created.status).toBe(201);
    expect(created.text).not.toContain('another-secret-value-42');
    const postId = (await t.api('POST', '/api/posts', { body: { title: 'x', slug: 'admin-hook' } })).body.data.id;
    await t.api('PATCH', `/api/posts/${postId}`, { body: { title: 'y' } });
    const r = await until(() => own.got[0], 'the admin endpoint delivery');
    expect(verify(r, 'another-secret-value-42').data).toMatchObject({ id: postId, title: 'y' });

    const patched = await t.api('PATCH', `/api/admin/webhooks/${created.body.data.id}`, { body: { events: ['content.deleted'] } });
    expect(patched.body.data.events).toEqual(['content.deleted']);
    for (const [body, field] of [
      [{ url: 'ftp://x', events: ['*'], secret: 'x'.repeat(16) }, 'url'],
      [{ url: own.url, events: ['content.exploded'], secret: 'x'.repeat(16) }, 'events'],
      [{ url: own.url, events: ['*'], secret: 'short' }, 'secret'],
      [{ url: own.url, events: ['*'], models: ['widgets'], secret: 'x'.repeat(16) }, 'models'],
    ] as const) {
      const bad = await t.api('POST', '/api/admin/webhooks', { body });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details[0].field).toContain(field);
    }
    expect((await t.api('DELETE', `/api/admin/webhooks/${created.body.data.id}`)).status).toBe(204);
    const viewer = await t.key({ models: { posts: ['read'] } });
    expect((await t.api('GET', '/api/admin/webhooks/deliveries', { token: viewer })).status).toBe(403);
    await own.close();
  });
});

describe('the webhook outbox', () => {
  it('survives a restart: events written before a stop are delivered by the next process', async () => {
    const hook = await receiver();
    const dir = mkdtempSync(join(tmpdir(), 'quarry-outbox-'));
    const schema = `t_outbox_${randomBytes(4).toString('hex')}`;
    const shared = testDatabaseUrl ? { databaseUrl: testDatabaseUrl, databaseSchema: schema } : { databaseUrl: join(dir, 'shared.db') };
    // vector off: restarting on an existing SQLite file with a sqlite-vec table fails in migrate() (reported to the lead).
    const settings = { ...shared, ingestion: { vector: 'off' }, webhooks: { ...fast, endpoints: [{ url: hook.url, events: ['content.created'], secret: SECRET }] } };
    try {
      const first = await startTestApp(settings, { workers: false });
      const id = (await first.api('POST', '/api/posts', { body: { title: 'Before restart', slug: 'restart' } })).body.data.id;
      await first.close();
      expect(hook.got).toHaveLength(0);

      const second = await startTestApp(settings);
      try {
        const r = await until(() => hook.got[0], 'delivery after the restart');
        expect(verify(r, SECRET).data).toMatchObject({ id, title: 'Before restart' });
      } finally {
        await second.close();
      }
    } finally {
      await hook.close();
      rmSync(dir, { recursive: true, force: true });
      if (testDatabaseUrl) {
        const client = new pg.Client({ connectionString: testDatabaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    }
  });
});

describe('private webhook targets', () => {
  it('are refused when not allowed, by literal address and by DNS answer', async () => {
    const hook = await receiver();
    const byName = hook.url.replace('127.0.0.1', 'localhost');
    const t = await startTestApp({
      webhooks: { ...fast, maxAttempts: 1, allowPrivateTargets: false, endpoints: [{ url: hook.url, events: ['*'], secret: SECRET }, { url: byName, events: ['*'], secret: SECRET }] },
    });
    try {
      await t.api('POST', '/api/posts', { body: { title: 'Private', slug: 'private' } });
      const failed = await until(async () => {
        const res = await t.api('GET', '/api/admin/webhooks/deliveries?status=failed');
        return res.body.data.length === 2 && res.body.data;
      }, 'two failed deliveries');
      for (const d of failed) expect(d.error).toMatch(/Target refused: .*loopback/);
      expect(hook.got).toHaveLength(0);
    } finally {
      await t.close();
      await hook.close();
    }
  });
});
