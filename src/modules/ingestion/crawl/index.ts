export { crawl, type CrawlOptions } from './crawler.js';
export { CrawlSettings, crawlEnv, crawlSettings, ROBOTS_PRODUCT_TOKEN } from './settings.js';
export { normalizeUrl } from './urls.js';
