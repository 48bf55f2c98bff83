import Type, { type Static } from 'typebox';
import type { EnvBinding } from '../../../kernel/config/core-schema.js';
import { validatorFor } from '../../../kernel/validation.js';

/** The product token robots.txt groups are matched against; also the start of the User-Agent. */
export const ROBOTS_PRODUCT_TOKEN = 'QuarryBot';

/**
 * Process-wide crawler settings. The orchestrator composes this object under `ingestion.crawl`
 * (so the environment bindings below point there).
 */
export const CrawlSettings = Type.Object(
  {
    allowPrivate: Type.Boolean({ default: false, description: 'Allow fetching loopback/private/link-local addresses (SSRF guard off)' }),
    userAgent: Type.String({
      minLength: 1,
      pattern: ROBOTS_PRODUCT_TOKEN,
      default: `${ROBOTS_PRODUCT_TOKEN}/0.1 (+https://github.com/quarry; self-hosted ingestion)`,
    }),
    concurrency: Type.Integer({ minimum: 1, maximum: 256, default: 8, description: 'Pages fetched at once, all hosts together' }),
    perHostConcurrency: Type.Integer({ minimum: 1, maximum: 64, default: 4, description: 'Pages fetched at once from one origin' }),
    delayMs: Type.Integer({ minimum: 0, maximum: 60_000, default: 0, description: 'Pause between requests to one origin (robots Crawl-delay wins when larger)' }),
    maxCrawlDelayMs: Type.Integer({ minimum: 0, maximum: 600_000, default: 30_000, description: 'Cap on a robots.txt Crawl-delay' }),
    connectTimeoutMs: Type.Integer({ minimum: 1, default: 10_000 }),
    headersTimeoutMs: Type.Integer({ minimum: 1, default: 30_000 }),
    bodyTimeoutMs: Type.Integer({ minimum: 1, default: 30_000, description: 'Longest silence while the body streams' }),
    maxBytes: Type.Integer({ minimum: 1024, default: 5 * 1024 * 1024, description: 'Largest page body; larger pages are skipped' }),
    maxRedirects: Type.Integer({ minimum: 0, maximum: 20, default: 5 }),
    maxPagesCeiling: Type.Integer({ minimum: 1, default: 10_000, description: "Upper bound for any source's maxPages" }),
  },
  { default: {}, additionalProperties: false },
);
export type CrawlSettings = Static<typeof CrawlSettings>;

const at = (name: string) => `ingestion.crawl.${name}`;
export const crawlEnv: Record<string, EnvBinding> = {
  QUARRY_CRAWL_ALLOW_PRIVATE: { path: at('allowPrivate'), type: 'boolean' },
  QUARRY_CRAWL_USER_AGENT: { path: at('userAgent'), type: 'string' },
  QUARRY_CRAWL_CONCURRENCY: { path: at('concurrency'), type: 'number' },
  QUARRY_CRAWL_PER_HOST_CONCURRENCY: { path: at('perHostConcurrency'), type: 'number' },
  QUARRY_CRAWL_DELAY_MS: { path: at('delayMs'), type: 'number' },
  QUARRY_CRAWL_MAX_CRAWL_DELAY_MS: { path: at('maxCrawlDelayMs'), type: 'number' },
  QUARRY_CRAWL_CONNECT_TIMEOUT_MS: { path: at('connectTimeoutMs'), type: 'number' },
  QUARRY_CRAWL_HEADERS_TIMEOUT_MS: { path: at('headersTimeoutMs'), type: 'number' },
  QUARRY_CRAWL_BODY_TIMEOUT_MS: { path: at('bodyTimeoutMs'), type: 'number' },
  QUARRY_CRAWL_MAX_BYTES: { path: at('maxBytes'), type: 'number' },
  QUARRY_CRAWL_MAX_REDIRECTS: { path: at('maxRedirects'), type: 'number' },
  QUARRY_CRAWL_MAX_PAGES_CEILING: { path: at('maxPagesCeiling'), type: 'number' },
};

const validateSettings = validatorFor(CrawlSettings, 'ingestion.crawl');
/** Settings with defaults filled in, for tests and callers that build settings by hand. */
export const crawlSettings = (overrides: Partial<CrawlSettings> = {}): CrawlSettings => validateSettings(overrides);
