import { isIP } from 'node:net';
import picomatch from 'picomatch';
import type { WebSourceConfig } from '../../sources/source-types.js';

/**
 * The one spelling of a URL used for dedupe, `previous` keys and events: http(s) only, fragment
 * dropped, scheme and host lower-cased, default port removed, dot segments resolved, an empty
 * query (`?`) dropped. The path's trailing slash and the query's order are kept as given: servers
 * may treat `/a` and `/a/` (or `?b=1&a=2` and `?a=2&b=1`) differently, and redirects and
 * rel=canonical already fold the common duplicates. Returns null for anything that is not http(s).
 */
export function normalizeUrl(raw: string, base?: string | URL): string | null {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null;
  // Credentials in a link would be sent to the host: never follow them, and never store them.
  url.username = '';
  url.password = '';
  url.hash = '';
  if (!url.search) url.search = ''; // drops a bare "?"
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.slice(0, -1);
  return url.href;
}

/**
 * The registrable domain, by the simple rule "the last two labels" (`docs.example.com` ->
 * `example.com`). It does not know the public suffix list, so under `co.uk`-style suffixes the
 * domain scope is as wide as the suffix itself; IP addresses and single-label hosts are their own domain.
 */
export function registrableDomain(hostname: string): string {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return host;
  return host.split('.').slice(-2).join('.');
}

/**
 * The path prefix a `prefix` scope keeps: the seed's path as a directory. A last segment with a
 * dot is a file (`/docs/index.html` -> `/docs/`); otherwise the path itself is the directory
 * (`/docs/guide` -> `/docs/guide/`).
 */
export function seedPrefix(pathname: string): string {
  if (pathname.endsWith('/')) return pathname;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return last.includes('.') ? pathname.slice(0, pathname.lastIndexOf('/') + 1) : `${pathname}/`;
}

export type ScopeVerdict = 'in' | 'host' | 'path' | 'include' | 'exclude';

/** Which URLs a source may fetch, compiled once per run. */
export class CrawlScope {
  private readonly hosts = new Set<string>();
  private readonly domains = new Set<string>();
  private readonly prefixes: { host: string; path: string }[] = [];
  private readonly seeds = new Set<string>();
  private readonly included: ((path: string) => boolean) | null;
  private readonly excluded: ((path: string) => boolean) | null;

  constructor(private readonly config: Pick<WebSourceConfig, 'urls' | 'scope' | 'include' | 'exclude'>) {
    for (const raw of config.urls) {
      const normalized = normalizeUrl(raw);
      if (!normalized) continue;
      const url = new URL(normalized);
      this.seeds.add(normalized);
      this.hosts.add(url.hostname);
      this.domains.add(registrableDomain(url.hostname));
      this.prefixes.push({ host: url.host, path: seedPrefix(url.pathname) });
    }
    const options = { dot: true };
    this.included = config.include?.length ? picomatch(config.include, options) : null;
    this.excluded = config.exclude?.length ? picomatch(config.exclude, options) : null;
  }

  get seedUrls(): string[] {
    return [...this.seeds];
  }

  /** Whether the host may receive the source's extra headers (scope by host only, ignoring paths). */
  hostInScope(url: URL): boolean {
    if (this.config.scope === 'domain') return this.domains.has(registrableDomain(url.hostname));
    return this.hosts.has(url.hostname);
  }

  /** Seeds are always in scope; other URLs must pass the host/path rule, then include, then exclude. */
  check(normalized: string, url: URL = new URL(normalized)): ScopeVerdict {
    if (this.seeds.has(normalized)) return 'in';
    if (!this.hostInScope(url)) return 'host';
    if (this.config.scope === 'prefix' && !this.prefixes.some((p) => p.host === url.host && url.pathname.startsWith(p.path)))
      return 'path';
    const path = safeDecode(url.pathname);
    if (this.included && !this.included(path)) return 'include';
    if (this.excluded && this.excluded(path)) return 'exclude';
    return 'in';
  }
}

/** Globs are written by people, so they match the decoded path (`/docs/a b` rather than `/docs/a%20b`). */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
