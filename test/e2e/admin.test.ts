import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { browserMissing, ensureAdminBuilt, LAPTOP, launchBrowser, PHONE, screenshot, watchErrors } from './browser.js';

/** API keys, users, content with an upload, and webhooks in a real browser. */
describe.skipIf(browserMissing)('admin UI: keys, users, content, webhooks', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let key = '';
  const admin = { email: 'root@example.com', password: 'limestone-and-marble', name: 'Root Admin' };

  beforeAll(async () => {
    await ensureAdminBuilt();
    // One OAuth provider enabled: the sign-in screen must offer it (authorize URL never visited).
    const codehost = { enabled: true, clientId: 'quarry-admin', clientSecret: 'not-used', authorizeUrl: 'http://127.0.0.1:9/authorize', tokenUrl: 'http://127.0.0.1:9/token', userUrl: 'http://127.0.0.1:9/user' };
    t = await startTestApp({ auth: { jwt: { secret: 'test-secret-that-is-long-enough-for-hs256!!' }, providers: { codehost } } });
    await t.quarry.services.users.create({ ...admin, role: 'super_admin' });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: LAPTOP, baseURL: t.url });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    problems = watchErrors(page);
    await page.goto('/admin/settings/api-keys');
    const oauth = page.getByRole('link', { name: 'Continue with GitHub' });
    const href = (await oauth.getAttribute('href'))!;
    expect(href).toBe('/api/auth/codehost?redirect=%2Fadmin%2Fsettings%2Fapi-keys');
    const start = await fetch(t.url + href, { redirect: 'manual' });
    expect(start.status).toBe(302);
    expect(start.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:9\/authorize\?/);
    await screenshot(page, 'sign-in-oauth');
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Signing in from a deep link lands on that screen.
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name }).click();

  it('generates an API key with chosen permissions, shows it once, and the key works', async () => {
    await nav('API keys');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('button', { name: 'Generate key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Website build');
    await dialog.getByLabel('read posts').check();
    await dialog.getByLabel('create posts').check();
    await dialog.getByLabel('read projects').check();
    await dialog.getByLabel('Own rate limit').check();
    await dialog.getByLabel('Requests').fill('100');
    await dialog.getByLabel('Per seconds').fill('60');
    await screenshot(page, 'api-key-form');
    await dialog.getByRole('button', { name: 'Generate key' }).click();
    key = (await page.getByTestId('new-key').textContent()) ?? '';
    expect(key).toMatch(/^qk_/);
    await page.getByRole('cell', { name: 'Website build', exact: true }).waitFor();
    await screenshot(page, 'api-keys');

    const headers = { authorization: `Bearer ${key}` };
    expect((await fetch(`${t.url}/v1/projects`, { headers })).status).toBe(200);
    expect((await fetch(`${t.url}/v1/projects`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"name":"x"}' })).status).toBe(403);
    const listed = await t.api('GET', '/api/admin/api-keys');
    const doc = listed.body.data.find((k: { name: string }) => k.name === 'Website build');
    expect(doc.permissions).toEqual({ models: { posts: ['read', 'create'], projects: ['read'] }, admin: false, rateLimit: { requests: 100, windowMs: 60_000 } });
    // Shown once: after dismissing, the page never shows it again.
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.reload();
    await page.getByRole('cell', { name: 'Website build', exact: true }).waitFor();
    expect(await page.content()).not.toContain(key);
  });

  it('invites a user, shows API errors in words, changes the role and removes the user after confirming', async () => {
    await nav('Users');
    const invite = async () => {
      await page.getByRole('button', { name: 'Invite user' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name').fill('Grace Editor');
      await dialog.getByLabel('E-mail').fill('grace@example.com');
      await dialog.getByLabel('Initial password').fill('basalt-columns-42');
      await dialog.getByLabel('Role').selectOption('editor');
      await dialog.getByRole('button', { name: 'Invite' }).click();
      return dialog;
    };
    await invite();
    await page.getByRole('cell', { name: 'grace@example.com' }).waitFor();
    const again = await invite();
    await expect.poll(() => again.getByRole('alert').textContent()).toMatch(/\w+ \w+ \w+/);
    await again.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Edit Grace Editor' }).click();
    const edit = page.getByRole('dialog');
    await edit.getByLabel('Role').selectOption('viewer');
    await edit.getByLabel('Extra permissions').fill('create:posts');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    const users = (await t.api('GET', '/api/admin/users')).body.data as { email: string; role: string; permissions: string[]; id: string }[];
    const grace = users.find((u) => u.email === 'grace@example.com')!;
    expect(grace.role).toBe('viewer');
    expect(grace.permissions).toEqual(['create:posts']);
    await page.getByRole('cell', { name: 'create:posts' }).waitFor();
    await screenshot(page, 'users');

    // Role rules are the API's: the last super_admin cannot demote themself, and the UI says why.
    await page.getByRole('button', { name: 'Edit Root Admin' }).click();
    await edit.getByLabel('Role').selectOption('editor');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => edit.getByRole('alert').textContent()).toMatch(/super_admin/);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    expect((await t.api('GET', '/api/admin/users')).body.data.find((u: { email: string }) => u.email === admin.email).role).toBe('super_admin');

    await page.getByRole('button', { name: 'Remove Grace Editor' }).click();
    await page.getByRole('dialog', { name: 'Remove user?' }).getByRole('button', { name: 'Remove user' }).click();
    await page.getByRole('cell', { name: 'grace@example.com' }).waitFor({ state: 'detached' });
    expect((await t.api('GET', `/api/admin/users/${grace.id}`)).status).toBe(404);
  });

  it('creates a post with a markdown body and an uploaded cover, then edits it', async () => {
    await nav('Content');
    await page.getByRole('link', { name: /^Posts/ }).click();
    await page.getByRole('link', { name: 'New post' }).click();
    await page.getByLabel('Title').fill('Quarry opening');
    await page.getByLabel('Slug').fill('quarry-opening');
    await page.getByRole('textbox', { name: 'Body' }).fill('# Open day\n\nCome and see the **wire saws**.\n\n- tours\n- tea');
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.locator('.markdown-preview h1', { hasText: 'Open day' }).waitFor();
    await page.getByRole('tab', { name: 'Write' }).click();
    await page.getByLabel('Status').selectOption('published');
    const png = await sharp({ create: { width: 16, height: 12, channels: 3, background: '#4f46e5' } }).png().toBuffer();
    await page.getByLabel('Upload a file').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png });
    await page.getByLabel('Alt text').fill('A granite quarry at dawn');
    await page.getByLabel('Folder').fill('covers');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect.poll(() => page.getByLabel('Chosen file').inputValue()).toMatch(/\w/);
    await screenshot(page, 'content-form', { fullPage: true });
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('heading', { name: 'Quarry opening' }).waitFor();
    const id = page.url().split('/').pop()!;

    const created = (await t.api('GET', `/api/posts/${id}`)).body.data;
    expect(created).toMatchObject({ title: 'Quarry opening', slug: 'quarry-opening', status: 'published' });
    expect(created.body).toContain('**wire saws**');
    const file = (await t.api('GET', `/api/files/${created.cover}`)).body.data;
    expect(file).toMatchObject({ alt: 'A granite quarry at dawn', folder: 'covers', mimeType: 'image/png' });

    await page.getByLabel('Title').fill('Quarry opening (edited)');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await t.api('GET', `/api/posts/${id}`)).body.data.title).toBe('Quarry opening (edited)');

    // The list sorts and filters through the API.
    await page.getByRole('link', { name: 'posts' }).click();
    await page.getByLabel('Filter field').selectOption('title');
    await page.getByLabel('Operator').selectOption('contains');
    await page.getByLabel('Value').fill('edited');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('link', { name: 'Quarry opening (edited)' }).waitFor();
    await page.getByRole('button', { name: /^Title/ }).click();
    await screenshot(page, 'content-list');
    await page.getByLabel('Value').fill('no such words');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Nothing here yet').waitFor();
  });

  it('adds a webhook endpoint, shows deliveries with response codes, and redelivers', async () => {
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    try {
      await nav('Webhooks');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('URL').fill(hookUrl);
      await dialog.getByLabel('content.*').uncheck();
      await dialog.getByLabel('content.created').check();
      await dialog.getByLabel('Models').fill('posts');
      expect(await dialog.getByLabel('Signing secret').inputValue()).toMatch(/^[0-9a-f]{64}$/);
      await dialog.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByRole('cell', { name: hookUrl, exact: true }).waitFor();

      expect((await t.api('POST', '/api/posts', { body: { title: 'Hooked', slug: 'hooked' } })).status).toBe(201);
      await expect.poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return (await page.getByRole('row').filter({ hasText: 'content.created' }).filter({ hasText: '200' }).count());
      }, { timeout: 15_000 }).toBe(1);
      expect(received.length).toBe(1);
      expect(JSON.parse(received[0]!)).toMatchObject({ event: 'content.created' });
      await page.getByRole('button', { name: /^Redeliver content.created/ }).click();
      await expect.poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return page.getByRole('row').filter({ hasText: 'content.created' }).filter({ hasText: '200' }).count();
      }, { timeout: 15_000 }).toBe(2);
      expect(received.length).toBe(2);
      await screenshot(page, 'webhooks');
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('revokes the key after confirming; the key stops working at once', async () => {
    await nav('API keys');
    await page.getByRole('button', { name: 'Revoke Website build' }).click();
    await page.getByRole('dialog', { name: 'Revoke API key?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('cell', { name: 'Website build', exact: true }).waitFor({ state: 'detached' });
    expect((await fetch(`${t.url}/v1/projects`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    await page.setViewportSize(PHONE);
    await screenshot(page, 'api-keys-phone');
    expect(problems).toEqual([]);
  });
});
