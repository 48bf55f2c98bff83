import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { browserMissing, ensureAdminBuilt, LAPTOP, launchBrowser, screenshot, watchErrors } from './browser.js';

/** What an editor sees: no admin screens, unreadable fields hidden, refusals in words. */
describe.skipIf(browserMissing)('admin UI: an editor', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let noteId = '';
  const editor = { email: 'eddie@example.com', password: 'sandstone-layers-9', name: 'Eddie Editor' };

  beforeAll(async () => {
    await ensureAdminBuilt();
    t = await startTestApp({
      models: {
        notes: {
          fields: { title: { type: 'text', required: true }, internal: { type: 'text', read: ['admin'], update: ['admin'] } },
          access: { read: ['editor'], create: ['editor'], update: ['editor'], delete: ['admin'] },
        },
      },
    });
    await t.quarry.services.users.create({ ...editor, role: 'editor' });
    const note = await t.api('POST', '/api/notes', { body: { title: 'Site survey', internal: 'the secret plan' } });
    expect(note.status).toBe(201);
    noteId = note.body.data.id;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: LAPTOP, baseURL: t.url })).newPage();
    page.setDefaultTimeout(10_000);
    problems = watchErrors(page);
    await page.goto('/admin/');
    await page.getByLabel('E-mail').fill(editor.email);
    await page.getByLabel('Password').fill(editor.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows no administration screens in the navigation', async () => {
    const links = await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link').allTextContents();
    expect(links.map((l) => l.trim())).toEqual(['Knowledge', 'Content']);
  });

  it('hides a field the editor may not read and saves the fields they may change', async () => {
    await page.getByRole('link', { name: 'Content', exact: true }).click();
    await page.getByRole('link', { name: /^Notes/ }).click();
    await page.getByRole('link', { name: 'Site survey' }).click();
    await page.getByLabel('Title').waitFor();
    expect(await page.getByLabel('Internal').count()).toBe(0);
    expect(await page.content()).not.toContain('the secret plan');
    await page.getByLabel('Title').fill('Site survey, day 2');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await t.api('GET', `/api/notes/${noteId}`)).body.data.title).toBe('Site survey, day 2');
    expect((await t.api('GET', `/api/notes/${noteId}`)).body.data.internal).toBe('the secret plan');
    await screenshot(page, 'content-editor-view');
  });

  it('shows the API\'s refusal in words when the editor tries to delete', async () => {
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.locator('.toast').allTextContents()).toContainEqual(expect.stringMatching(/may not delete notes/));
    expect((await t.api('GET', `/api/notes/${noteId}`)).status).toBe(200);
  });

  it('signs in with an API key kept in memory only (gone after a reload)', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in with an API key instead' }).click();
    await page.getByLabel('API key').fill('qk_not_a_key');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/\w+ \w+/);
    await page.getByLabel('API key').fill(t.adminKey);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Signing in from a deep link stays on that screen.
    await page.getByText('Signed in with an API key').waitFor();
    await page.getByRole('heading', { name: 'Site survey, day 2' }).waitFor();
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).not.toContain('qk_');
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(problems).toEqual([]);
  });
});
