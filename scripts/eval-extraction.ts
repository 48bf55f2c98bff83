/**
 * Extraction quality and speed, offline:
 *   1. ../shared/eval/article-extraction — the scrapinghub benchmark's own metric (README there):
 *      4-token shingle multisets, per-page precision/recall averaged, F1 of the averages. We score
 *      parsePage's markdown converted to plain text with markdownToText.
 *   2. ../shared/eval/python-docs-site — mean parsePage time per page on a real 497-page site.
 * Times are CPU time of this process (process.cpuUsage), which is steadier than wall time on a
 * shared machine; wall time is printed too. Flags: --worst N lists the N weakest pages.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { markdownToText, parsePage } from '../src/modules/ingestion/extract/index.js';

const evalRoot = resolve(import.meta.dirname, '../../shared/eval');
const worstArg = process.argv.indexOf('--worst');
const showWorst = worstArg > 0 ? Number(process.argv[worstArg + 1] ?? 10) : 0;

function shingles(text: string): Map<string, number> {
  const tokens = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  const out = new Map<string, number>();
  if (tokens.length === 0) return out;
  if (tokens.length < 4) return out.set(tokens.join(' '), 1);
  for (let i = 0; i + 4 <= tokens.length; i++) {
    const key = tokens.slice(i, i + 4).join(' ');
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** The benchmark's per-page precision and recall (null where the page does not count). */
export function pageScore(truth: string, predicted: string): { precision: number | null; recall: number | null } {
  const t = shingles(truth);
  const p = shingles(predicted);
  let tp = 0, fp = 0, fn = 0;
  for (const [k, n] of p) {
    const m = t.get(k) ?? 0;
    tp += Math.min(n, m);
    fp += Math.max(0, n - m);
  }
  for (const [k, n] of t) fn += Math.max(0, n - (p.get(k) ?? 0));
  const exact = fp === 0 && fn === 0;
  return {
    precision: tp + fp > 0 ? (exact ? 1 : tp / (tp + fp)) : null,
    recall: tp + fn > 0 ? (exact ? 1 : tp / (tp + fn)) : null,
  };
}

function timed<T>(fn: () => T): { value: T; cpuMs: number; wallMs: number } {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const value = fn();
  const c = process.cpuUsage(c0);
  return { value, cpuMs: (c.user + c.system) / 1000, wallMs: performance.now() - w0 };
}

function articleBenchmark() {
  const dir = join(evalRoot, 'article-extraction');
  if (!existsSync(dir)) return console.log(`article-extraction: ${dir} missing, skipped`);
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string; url: string }>;
  let pSum = 0, pN = 0, rSum = 0, rN = 0, cpu = 0, wall = 0;
  const rows: { id: string; precision: number; recall: number; strategy: string; url: string }[] = [];
  const strategies: Record<string, number> = {};
  const ids = Object.keys(truth);
  for (const id of ids) {
    const { url, articleBody } = truth[id]!;
    const file = join(dir, 'html', `${id}.html.gz`);
    const html = existsSync(file) ? gunzipSync(readFileSync(file)).toString('utf8') : '';
    const run = timed(() => parsePage(html, url));
    cpu += run.cpuMs;
    wall += run.wallMs;
    strategies[run.value.strategy] = (strategies[run.value.strategy] ?? 0) + 1;
    const score = pageScore(articleBody, markdownToText(run.value.markdown));
    if (score.precision !== null) (pSum += score.precision), pN++;
    if (score.recall !== null) (rSum += score.recall), rN++;
    rows.push({ id: id.slice(0, 10), precision: score.precision ?? 0, recall: score.recall ?? 0, strategy: run.value.strategy, url: url.slice(0, 70) });
  }
  const precision = pSum / pN;
  const recall = rSum / rN;
  const f1 = (2 * precision * recall) / (precision + recall);
  console.log(`article-extraction: ${ids.length} pages`);
  console.log(`  F1 ${f1.toFixed(4)}  precision ${precision.toFixed(4)}  recall ${recall.toFixed(4)}`);
  console.log(`  parsePage ${(cpu / ids.length).toFixed(2)} ms/page CPU (${(wall / ids.length).toFixed(2)} wall)  strategies ${JSON.stringify(strategies)}`);
  if (showWorst) {
    rows.sort((a, b) => a.precision + a.recall - b.precision - b.recall);
    console.table(rows.slice(0, showWorst));
  }
}

function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...htmlFiles(path));
    else if (name.endsWith('.html')) out.push(path);
  }
  return out;
}

function docsSiteBenchmark() {
  const dir = join(evalRoot, 'python-docs-site');
  if (!existsSync(dir)) return console.log(`python-docs-site: ${dir} missing, skipped`);
  const pages = htmlFiles(dir).map((path) => ({ url: `https://docs.python.org/3.6/${relative(dir, path)}`, html: readFileSync(path, 'utf8') }));
  const bytes = pages.reduce((n, p) => n + p.html.length, 0);
  let cpu = 0, wall = 0, chars = 0;
  const strategies: Record<string, number> = {};
  for (const page of pages) {
    const run = timed(() => parsePage(page.html, page.url));
    cpu += run.cpuMs;
    wall += run.wallMs;
    chars += run.value.markdown.length;
    strategies[run.value.strategy] = (strategies[run.value.strategy] ?? 0) + 1;
  }
  console.log(`python-docs-site: ${pages.length} pages, ${(bytes / pages.length / 1024).toFixed(1)} KB/page, ${(chars / pages.length / 1024).toFixed(1)} KB markdown/page`);
  console.log(`  parsePage ${(cpu / pages.length).toFixed(2)} ms/page CPU (${(wall / pages.length).toFixed(2)} wall)  strategies ${JSON.stringify(strategies)}`);
}

articleBenchmark();
docsSiteBenchmark();
