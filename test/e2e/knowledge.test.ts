import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectUnderTest, startTestApp, type TestApp } from '../helpers/app.js';
import { browserMissing, ensureAdminBuilt, LAPTOP, launchBrowser, PHONE, screenshot, watchErrors } from './browser.js';
import { startSite } from './site.js';

/** The knowledge area in a real browser: sign in, project, source, live run, search, delete. */
describe.skipIf(browserMissing)('admin UI: knowledge', () => {
  let t: TestApp;
  let site: Awaited<ReturnType<typeof startSite>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  const admin = { email: 'ada@example.com', password: 'granite-and-basalt', name: 'Ada Admin' };
  let sourceId = '';
  let projectId = '';

  beforeAll(async () => {
    await ensureAdminBuilt();
    site = await startSite();
    // Debian's PostgreSQL has no pgvector: keyword search there (the UI asks for hybrid either way).
    const vector = dialectUnderTest === 'postgres' ? { vector: 'off' } : {};
    t = await startTestApp({ ingestion: { heartbeatMs: 100, sweepMs: 200, parseThreads: 0, crawl: { allowPrivate: true }, ...vector } });
    await t.quarry.services.users.create({ ...admin, role: 'super_admin' });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: LAPTOP, baseURL: t.url });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    problems = watchErrors(page);
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await site?.close();
  });

  it('serves the app at /admin with deep links and plain 404s for missing assets', async () => {
    const deep = await fetch(`${t.url}/admin/projects/prj_anything`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toMatch(/text\/html/);
    expect(await deep.text()).toContain('<div id="root">');
    const redirect = await fetch(`${t.url}/admin`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/admin/');
    expect((await fetch(`${t.url}/admin/assets/nope.js`)).status).toBe(404);
    expect((await fetch(`${t.url}/admin/../package.json`)).status).not.toBe(200);
    const spec = (await t.api('GET', '/v1/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths).some((p) => p.startsWith('/admin'))).toBe(false);
  });

  it('refuses a wrong password in words, then signs in with e-mail and password', async () => {
    await page.goto('/admin/');
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/\w+ \w+/);
    await screenshot(page, 'sign-in');
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'session')?.httpOnly).toBe(true);
  });

  it('creates a project and a web source pointing at a loopback site', async () => {
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Stone handbook');
    await dialog.getByLabel('Description').fill('Everything about granite, from quarry to polish.');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: /Stone handbook/ }).waitFor();
    projectId = page.url().split('/').pop()!;
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('heading', { name: /archived/ }).waitFor();
    expect((await t.api('GET', `/v1/projects/${projectId}`)).body.status).toBe('archived');
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('heading', { name: /active/ }).waitFor();

    await page.getByRole('button', { name: 'Add source' }).click();
    await dialog.getByLabel('Name').fill('Handbook site');
    await dialog.getByLabel('Start URLs').fill('not a url');
    await dialog.getByRole('button', { name: 'Create source' }).click();
    // The API's validation message is shown in words and nothing is created.
    await expect.poll(() => dialog.getByRole('alert').textContent()).toMatch(/config\.urls/);
    await dialog.getByLabel('Start URLs').fill(`${site.url}/`);
    await dialog.getByLabel('Crawl depth').fill('2');
    await dialog.getByRole('button', { name: 'Create source' }).click();
    await page.getByRole('heading', { name: /Handbook site/ }).waitFor();
    sourceId = page.url().split('/').pop()!;
    expect(sourceId).toMatch(/\w/);
    const listed = await t.api('GET', `/v1/sources/${sourceId}`);
    expect(listed.body.config.urls).toEqual([`${site.url}/`]);
    expect(listed.body.config.crawlDepth).toBe(2);
  });

  it('runs the source and watches the run finish live', async () => {
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('progressbar', { name: 'Run progress' }).waitFor();
    const runId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: /succeeded/ }).waitFor({ timeout: 50_000 });
    await expect.poll(() => page.getByTestId('run-stats').textContent()).toMatch(/Documents/);
    // The dead link on the home page is listed with its status.
    const failed = page.getByRole('row').filter({ hasText: `${site.url}/retired` });
    await failed.waitFor();
    expect(await failed.textContent()).toContain('404');
    await screenshot(page, 'run');
    const run = await t.api('GET', `/v1/runs/${runId}`);
    expect(run.body.status).toBe('succeeded');
    expect(run.body.stats.documents).toBeGreaterThanOrEqual(3);
    // The source page lists the run and the documents it produced.
    await page.getByRole('link', { name: 'Back to source' }).click();
    await page.getByRole('cell', { name: 'Quarrying guide' }).waitFor();
    await page.getByRole('link', { name: runId.slice(-8) }).waitFor();
    await screenshot(page, 'source', { fullPage: true });
  }, 60_000);

  it('searches the project and shows matching passages with page links', async () => {
    await page.getByRole('link', { name: 'Stone handbook' }).click();
    await page.getByLabel('Search query').fill('diamond wire saws');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('list', { name: 'Search results' });
    await results.waitFor();
    const first = results.getByRole('listitem').first();
    await expect.poll(() => first.textContent()).toMatch(/wire saws/i);
    expect(await first.getByRole('link').first().getAttribute('href')).toBe(`${site.url}/quarrying`);
    await screenshot(page, 'project', { fullPage: true });
    await page.setViewportSize(PHONE);
    await screenshot(page, 'project-phone');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Knowledge' }).waitFor();
    await screenshot(page, 'navigation-phone');
    await page.keyboard.press('Escape');
    await page.setViewportSize(LAPTOP);
    await page.getByRole('link', { name: 'Knowledge' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await screenshot(page, 'projects');
  });

  it('cancels a running run after confirming', async () => {
    const created = await t.api('POST', '/v1/sources', { body: { projectId, type: 'web', name: 'Slow site', config: { urls: [`${site.url}/slow`], crawlDepth: 0 } } });
    expect(created.status).toBe(201);
    await page.goto(`/admin/sources/${created.body.id}`);
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('heading', { name: /running/ }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByRole('dialog', { name: 'Cancel this run?' }).getByRole('button', { name: 'Cancel run' }).click();
    await page.getByRole('heading', { name: /cancelled/ }).waitFor({ timeout: 20_000 });
    const runId = page.url().split('/').pop()!;
    expect((await t.api('GET', `/v1/runs/${runId}`)).body.status).toBe('cancelled');
  }, 45_000);

  it('asks before deleting a source; Escape keeps it, confirming deletes it', async () => {
    await page.goto(`/admin/sources/${sourceId}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete source?' });
    await dialog.waitFor();
    // Focus starts inside the dialog (on Cancel), and Escape closes it without deleting.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    // Tab and Shift+Tab stay inside the dialog.
    for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await t.api('GET', `/v1/sources/${sourceId}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete' }).click();
    await screenshot(page, 'confirm-dialog');
    await dialog.getByRole('button', { name: 'Delete source' }).click();
    await page.getByRole('heading', { name: /Stone handbook/ }).waitFor();
    expect((await t.api('GET', `/v1/sources/${sourceId}`)).status).toBe(404);
  });

  it('signs out and ends the session', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect((await context.cookies()).find((c) => c.name === 'session')).toBeUndefined();
  });

  it('asks for a reset link, then shows the reset-password page and the API\'s refusal of a bad token in words', async () => {
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    // Without SMTP the API refuses; either way the screen says what the API said.
    const direct = await t.api('POST', '/api/auth/reset-password', { token: null, body: { email: admin.email } });
    const expected = direct.status === 202 ? 'on its way' : direct.body.error.message;
    await expect.poll(async () => (await page.locator('.auth-card .alert').allTextContents()).join(' ')).toContain(expected);
    await page.goto('/admin/reset-password?token=not-a-real-token');
    await page.getByLabel('New password', { exact: true }).fill('a-brand-new-password');
    await page.getByLabel('Repeat the password').fill('a-brand-new-password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/\w+ \w+/);
    await screenshot(page, 'reset-password');
    expect(problems).toEqual([]);
  });
});
