import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ADMIN_DIST } from '../../src/modules/admin-ui/routes.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const CHROMIUM = process.env.QUARRY_CHROMIUM ?? '/usr/bin/chromium';
/** Without a browser the e2e files skip, saying why, instead of failing the whole suite. */
export const browserMissing = !existsSync(CHROMIUM);
if (browserMissing) console.warn(`e2e: ${CHROMIUM} not found (apt-get install -y chromium, or set QUARRY_CHROMIUM); browser tests skipped`);

/**
 * Builds the admin bundle when `npm run build` has not (vitest alone, fresh checkout). Test files
 * run in parallel: each builds into its own folder and the first rename wins.
 */
export async function ensureAdminBuilt() {
  if (existsSync(join(ADMIN_DIST, 'index.html'))) return;
  const { build } = await import('vite');
  const outDir = `${ADMIN_DIST}-${process.pid}`;
  await build({ configFile: join(root, 'admin/vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
  try {
    renameSync(outDir, ADMIN_DIST);
  } catch {
    rmSync(outDir, { recursive: true, force: true });
  }
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * Screenshots go to docs/screenshots when QUARRY_SCREENSHOTS=1 (to refresh the docs), else to a
 * scratch folder, so an ordinary test run leaves the tree untouched.
 */
const shotDir = process.env.QUARRY_SCREENSHOTS === '1' ? join(root, 'docs/screenshots') : join(root, 'test-results/screenshots');

export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  mkdirSync(shotDir, { recursive: true });
  // Let transitions and toasts' entry animations settle so the picture is stable.
  await page.waitForTimeout(250);
  // Toasts belong to the moment, not to the screen being documented.
  await page.evaluate(() => document.querySelector<HTMLElement>('.toasts')?.style.setProperty('visibility', 'hidden'));
  // A tall viewport rather than Playwright's fullPage: sticky bars stay where a person sees them.
  const viewport = page.viewportSize();
  if (options.fullPage && viewport) {
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
  }
  await page.screenshot({ path: join(shotDir, `${name}.png`) });
  if (options.fullPage && viewport) await page.setViewportSize(viewport);
  await page.evaluate(() => document.querySelector<HTMLElement>('.toasts')?.style.removeProperty('visibility'));
}

/** Collects uncaught page errors and console errors: a screen that throws fails its test. */
export function watchErrors(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    // Failed fetches are reported by the UI itself (and asserted on); only script errors count.
    if (/Failed to load resource/.test(text)) return;
    problems.push(`console: ${text}`);
  });
  return problems;
}
