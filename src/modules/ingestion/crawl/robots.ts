import robotsParserModule from 'robots-parser';
import { fetchOnce } from './fetcher.js';
import type { CrawlSettings } from './settings.js';
import { ROBOTS_PRODUCT_TOKEN } from './settings.js';
import type { Dispatcher } from 'undici';

export interface RobotsRules {
  allows(url: string): boolean;
  /** Crawl-delay in ms (0 when none), already capped by `maxCrawlDelayMs`. */
  delayMs: number;
  /** Set when robots.txt answered 5xx or could not be fetched: RFC 9309 says assume "disallow all". */
  unreachable: string | null;
}

// robots-parser is CommonJS with ESM-style typings: unwrap whichever shape the loader gave us.
type ParseRobots = typeof robotsParserModule.default;
const robotsParser: ParseRobots =
  (robotsParserModule as unknown as { default?: ParseRobots }).default ?? (robotsParserModule as unknown as ParseRobots);

const ALLOW_ALL: RobotsRules = { allows: () => true, delayMs: 0, unreachable: null };
const ROBOTS_MAX_BYTES = 512 * 1024; // RFC 9309 asks crawlers to read at least 500 KiB
const ROBOTS_MAX_REDIRECTS = 5; // RFC 9309: follow at least five

/** robots.txt per origin, fetched at most once per run and parsed once. */
export class RobotsCache {
  private readonly byOrigin = new Map<string, Promise<RobotsRules>>();

  constructor(
    private readonly options: {
      agent: Dispatcher;
      settings: CrawlSettings;
      signal: AbortSignal;
      headersFor: (url: URL) => Record<string, string>;
    },
  ) {}

  private readonly known = new Map<string, RobotsRules>();

  /** The rules once loaded; undefined while the origin's robots.txt has not been read yet. */
  peek(origin: string): RobotsRules | undefined {
    return this.known.get(origin);
  }

  rulesFor(origin: string): Promise<RobotsRules> {
    let rules = this.byOrigin.get(origin);
    if (!rules) {
      rules = this.load(origin).then((r) => {
        this.known.set(origin, r);
        return r;
      });
      this.byOrigin.set(origin, rules);
    }
    return rules;
  }

  private async load(origin: string): Promise<RobotsRules> {
    const robotsUrl = `${origin}/robots.txt`;
    let url = robotsUrl;
    for (let hop = 0; hop <= ROBOTS_MAX_REDIRECTS; hop++) {
      const result = await fetchOnce(url, this.options.headersFor(new URL(url)), {
        agent: this.options.agent,
        settings: this.options.settings,
        signal: this.options.signal,
        maxBytes: ROBOTS_MAX_BYTES,
        anyType: true,
      });
      switch (result.kind) {
        case 'page':
          return this.parse(robotsUrl, result.body);
        case 'redirect':
          if (!result.location) return ALLOW_ALL;
          url = new URL(result.location, url).href;
          continue;
        case 'failed':
          // 4xx means "no robots.txt": everything is allowed. 5xx and network errors mean the
          // site may be overloaded or broken: RFC 9309 (2.3.1.4) says to assume a complete disallow.
          if (result.status !== null && result.status < 500) return ALLOW_ALL;
          if (result.blocked) return { allows: () => false, delayMs: 0, unreachable: result.reason }; // the pages would be refused too
          return { allows: () => false, delayMs: 0, unreachable: `robots.txt unreachable (${result.status ? `HTTP ${result.status}` : result.reason})` };
        default:
          return ALLOW_ALL; // 304 (never asked for), or larger than 512 KiB: treated as absent
      }
    }
    return ALLOW_ALL; // too many redirects: RFC 9309 treats robots.txt as unavailable
  }

  private parse(robotsUrl: string, text: string): RobotsRules {
    const robots = robotsParser(robotsUrl, text);
    const delaySeconds = robots.getCrawlDelay(ROBOTS_PRODUCT_TOKEN) ?? 0;
    const delayMs = Math.min(Math.max(0, Math.round(delaySeconds * 1000)) || 0, this.options.settings.maxCrawlDelayMs);
    // robots-parser answers undefined for URLs of another origin; the crawler never asks those.
    return { allows: (url) => robots.isAllowed(url, ROBOTS_PRODUCT_TOKEN) !== false, delayMs, unreachable: null };
  }
}
