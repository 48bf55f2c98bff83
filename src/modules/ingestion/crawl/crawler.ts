import type { Agent } from 'undici';
import { validatorFor } from '../../../kernel/validation.js';
import { WebSourceConfig } from '../../sources/source-types.js';
import type { CrawlEvent, CrawlSummary, FetchedPage, PageOutcome, PreviousFetch } from '../contracts.js';
import { createAgent, fetchOnce } from './fetcher.js';
import { RobotsCache } from './robots.js';
import { Scheduler } from './scheduler.js';
import type { CrawlSettings } from './settings.js';
import type { LookupFunction } from './ssrf.js';
import { CrawlScope, normalizeUrl } from './urls.js';

export interface CrawlOptions {
  /** Seed URLs; defaults to `config.urls`. */
  seeds?: string[];
  config: WebSourceConfig;
  settings: CrawlSettings;
  /** What the last run stored, keyed by normalized URL: drives conditional requests. */
  previous?: Map<string, PreviousFetch>;
  signal: AbortSignal;
  onPage: (page: FetchedPage) => Promise<PageOutcome>;
  onEvent?: (event: CrawlEvent) => void | Promise<void>;
  /** DNS lookup to use (tests, custom resolvers); the SSRF guard still checks its answers. */
  lookup?: LookupFunction;
}

interface Task {
  url: string;
  depth: number;
}

const ACCEPT = 'text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.8,*/*;q=0.1';
const fillConfig = validatorFor(WebSourceConfig, 'config');

/**
 * Crawls a web source breadth-first. Never throws for a page: every URL ends as a page handed to
 * `onPage`, or a `skipped` / `failed` event. Resolves when the frontier is empty or the signal
 * aborts (in-flight requests are aborted; in-flight `onPage` calls are awaited).
 */
export async function crawl(options: CrawlOptions): Promise<CrawlSummary> {
  const run = new CrawlRun(options);
  try {
    return await run.start();
  } finally {
    await run.close();
  }
}

class CrawlRun {
  private readonly config: WebSourceConfig;
  private readonly settings: CrawlSettings;
  private readonly scope: CrawlScope;
  private readonly agent: Agent;
  private readonly robots: RobotsCache;
  private readonly scheduler: Scheduler<Task>;
  private readonly maxPages: number;
  /** Every URL already queued, fetched, redirected to or named canonical: fetched at most once. */
  private readonly seen = new Set<string>();
  /** Document keys (final URL or canonical) already taken by a page of this run. */
  private readonly claimed = new Set<string>();
  private admitted = 0;
  private fatal: unknown = null;
  private readonly summary: CrawlSummary = { pagesDiscovered: 0, pagesFetched: 0, pagesSkipped: 0, pagesFailed: 0, bytes: 0 };
  private readonly internalAbort = new AbortController();
  private readonly signal: AbortSignal;

  constructor(private readonly options: CrawlOptions) {
    this.config = fillConfig(options.config);
    this.settings = options.settings;
    this.signal = AbortSignal.any([options.signal, this.internalAbort.signal]);
    this.scope = new CrawlScope(this.config);
    this.maxPages = Math.min(this.config.maxPages, this.settings.maxPagesCeiling);
    this.agent = createAgent(this.settings, options.lookup);
    this.robots = new RobotsCache({ agent: this.agent, settings: this.settings, signal: this.signal, headersFor: (url) => this.headersFor(url, undefined) });
    this.scheduler = new Scheduler<Task>(this.settings.concurrency, {
      limit: (origin) => {
        if (this.config.respectRobots && !this.robots.peek(origin)) return 1; // learn Crawl-delay first
        return this.delayFor(origin) > 0 ? 1 : this.settings.perHostConcurrency;
      },
      delayMs: (origin) => this.delayFor(origin),
    }, (task) => this.guarded(task));
  }

  async start(): Promise<CrawlSummary> {
    for (const seed of this.options.seeds ?? this.config.urls) {
      const url = normalizeUrl(seed);
      if (!url || this.seen.has(url)) continue;
      this.seen.add(url);
      await this.admit(url, 0);
    }
    await this.scheduler.drain(this.signal);
    if (this.fatal) throw this.fatal;
    return this.summary;
  }

  async close() {
    await this.agent.destroy().catch(() => undefined);
  }

  private delayFor(origin: string): number {
    return Math.max(this.settings.delayMs, this.config.respectRobots ? (this.robots.peek(origin)?.delayMs ?? 0) : 0);
  }

  private headersFor(url: URL, previous: PreviousFetch | undefined): Record<string, string> {
    const headers: Record<string, string> = this.scope.hostInScope(url) ? { ...this.config.headers } : {};
    headers['user-agent'] = this.settings.userAgent;
    headers.accept = ACCEPT;
    if (previous?.etag) headers['if-none-match'] = previous.etag;
    if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified;
    return headers;
  }

  private async emit(event: CrawlEvent) {
    if (event.type === 'skipped') this.summary.pagesSkipped++;
    else if (event.type === 'failed') this.summary.pagesFailed++;
    else this.summary.pagesDiscovered++;
    await this.options.onEvent?.(event);
  }

  /** A new in-scope URL: queued if the page budget allows. */
  private async admit(url: string, depth: number) {
    if (this.admitted >= this.maxPages) return this.emit({ type: 'skipped', url, reason: 'max_pages' });
    this.admitted++;
    await this.emit({ type: 'discovered', url, depth });
    this.scheduler.push(new URL(url).origin, { url, depth });
  }

  private async guarded(task: Task) {
    try {
      await this.visit(task);
    } catch (err) {
      if (this.signal.aborted) return;
      // Only callbacks throw here (fetch errors are results): stop the run and surface it.
      this.fatal ??= err;
      this.internalAbort.abort();
    }
  }

  /** Robots verdict for a URL; emits the event and returns false when the URL must not be fetched. */
  private async robotsAllow(url: string, reportAs: string): Promise<boolean> {
    if (!this.config.respectRobots) return true;
    const rules = await this.robots.rulesFor(new URL(url).origin);
    if (this.signal.aborted) return false;
    if (rules.unreachable) {
      await this.emit({ type: 'failed', url: reportAs, status: null, reason: rules.unreachable });
      return false;
    }
    if (rules.allows(url)) return true;
    await this.emit({ type: 'skipped', url: reportAs, reason: 'robots' });
    return false;
  }

  private async visit(task: Task) {
    if (!(await this.robotsAllow(task.url, task.url))) return;
    const chain = [task.url];
    let current = task.url;
    const fail = (status: number | null, reason: string) => this.emit({ type: 'failed', url: task.url, status, reason });
    for (;;) {
      const previous = this.previousFor(current, task.depth);
      const result = await fetchOnce(current, this.headersFor(new URL(current), previous), {
        agent: this.agent,
        settings: this.settings,
        signal: this.signal,
      });
      if (this.signal.aborted) return;
      if (result.kind === 'failed') return fail(result.status, result.reason);
      if (result.kind === 'skipped') {
        this.summary.bytes += result.bytes;
        return this.emit({ type: 'skipped', url: task.url, reason: result.reason });
      }
      if (result.kind !== 'redirect') return this.deliver(task, current, result, previous);

      if (!result.location) return fail(result.status, `HTTP ${result.status} redirect without a Location header`);
      const target = normalizeUrl(result.location, current);
      if (!target) return fail(result.status, `redirect to a URL that is not http(s): ${result.location.slice(0, 200)}`);
      if (chain.includes(target)) return fail(result.status, `redirect loop: ${[...chain, target].join(' -> ')}`);
      if (chain.length > this.settings.maxRedirects) return fail(result.status, `more than ${this.settings.maxRedirects} redirects`);
      if (this.scope.check(target) !== 'in') return this.emit({ type: 'skipped', url: task.url, reason: 'scope' });
      if (this.seen.has(target)) return this.emit({ type: 'skipped', url: task.url, reason: 'duplicate' });
      this.seen.add(target);
      if (!(await this.robotsAllow(target, task.url))) return;
      chain.push(target);
      current = target;
    }
  }

  /**
   * Conditional headers only where a 304 loses nothing: pages at the last depth (their links are
   * not followed) or pages whose previous links the orchestrator handed back in `previous`.
   */
  private previousFor(url: string, depth: number): PreviousFetch | undefined {
    const previous = this.options.previous?.get(url);
    if (!previous || (!previous.etag && !previous.lastModified)) return undefined;
    return depth >= this.config.crawlDepth || previous.links ? previous : undefined;
  }

  private async deliver(
    task: Task,
    finalUrl: string,
    result: Exclude<Awaited<ReturnType<typeof fetchOnce>>, { kind: 'failed' | 'skipped' | 'redirect' }>,
    previous: PreviousFetch | undefined,
  ) {
    if (this.claimed.has(finalUrl)) return this.emit({ type: 'skipped', url: task.url, reason: 'duplicate' });
    this.claimed.add(finalUrl);
    let duplicate = false;
    const claimCanonical = (canonical: string) => {
      const key = normalizeUrl(canonical, finalUrl);
      if (!key || key === finalUrl) return !duplicate;
      if (this.claimed.has(key)) duplicate = true;
      else {
        this.claimed.add(key);
        this.seen.add(key); // the canonical URL itself need not be fetched again
      }
      return !duplicate;
    };
    const page: FetchedPage =
      result.kind === 'page'
        ? { url: task.url, finalUrl, depth: task.depth, status: result.status, contentType: result.contentType, body: result.body, bytes: result.bytes, etag: result.etag, lastModified: result.lastModified, notModified: false, claimCanonical }
        : { url: task.url, finalUrl, depth: task.depth, status: 304, contentType: '', body: '', bytes: 0, etag: result.etag ?? previous?.etag ?? null, lastModified: result.lastModified ?? previous?.lastModified ?? null, notModified: true, claimCanonical };
    this.summary.bytes += page.bytes;
    const outcome = await this.options.onPage(page);
    if (this.signal.aborted) return;
    if (outcome.canonicalUrl) claimCanonical(outcome.canonicalUrl);
    if (duplicate) await this.emit({ type: 'skipped', url: task.url, reason: 'duplicate' });
    else this.summary.pagesFetched++;
    if (task.depth >= this.config.crawlDepth) return;
    const links = page.notModified && previous?.links ? [...outcome.links, ...previous.links] : outcome.links;
    for (const link of links) {
      const url = normalizeUrl(link, finalUrl);
      if (!url || this.seen.has(url)) continue;
      this.seen.add(url);
      // Links outside the scope or the globs are not pages of this source: ignored without an event.
      if (this.scope.check(url) === 'in') await this.admit(url, task.depth + 1);
    }
  }
}
